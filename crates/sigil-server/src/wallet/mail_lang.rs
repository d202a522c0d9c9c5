//! The languages the wallet's emails (and its device-approval page) are written in: the
//! modal's shipped locales (web/packages/core/src/i18n.ts), each with its short texts. The
//! visitor's page names its locale (the frame sends it with the email requests, and as
//! Accept-Language); that tag only picks a text here, and anything not shipped is English.

use axum::extract::FromRequestParts;
use axum::http::header;
use axum::http::request::Parts;

/// A language the emails are written in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Lang {
    #[default]
    En,
    Es,
    PtBr,
    Fr,
    De,
    Ja,
    Ko,
    ZhCn,
    ZhTw,
    Ru,
    Tr,
    Ar,
    He,
}

/// The shipped tags, as the modal spells them.
const TAGS: [(&str, Lang); 13] = [
    ("en", Lang::En),
    ("es", Lang::Es),
    ("pt-BR", Lang::PtBr),
    ("fr", Lang::Fr),
    ("de", Lang::De),
    ("ja", Lang::Ja),
    ("ko", Lang::Ko),
    ("zh-CN", Lang::ZhCn),
    ("zh-TW", Lang::ZhTw),
    ("ru", Lang::Ru),
    ("tr", Lang::Tr),
    ("ar", Lang::Ar),
    ("he", Lang::He),
];

impl Lang {
    /// Every language, with its tag.
    pub fn all() -> impl Iterator<Item = (&'static str, Lang)> {
        TAGS.into_iter()
    }

    pub fn tag(self) -> &'static str {
        TAGS.iter().find(|(_, l)| *l == self).map_or("en", |(t, _)| t)
    }

    /// The shipped language for one BCP 47 tag ('de', 'pt-BR', 'de-AT', 'zh-Hant-HK'), if any: an
    /// exact tag, else its language ('pt' anywhere is pt-BR; Chinese by script or region). A tag
    /// that is not a plain tag (too long, other characters) matches nothing.
    pub fn matching(tag: &str) -> Option<Lang> {
        let tag = tag.trim();
        if tag.is_empty() || tag.len() > 35 || !tag.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') {
            return None;
        }
        let lower = tag.to_ascii_lowercase().replace('_', "-");
        if let Some((_, lang)) = TAGS.iter().find(|(t, _)| t.eq_ignore_ascii_case(&lower)) {
            return Some(*lang);
        }
        let mut parts = lower.split('-');
        let language = parts.next().unwrap_or_default();
        let rest: Vec<&str> = parts.collect();
        match language {
            "zh" => {
                let traditional = rest.iter().any(|p| matches!(*p, "hant" | "tw" | "hk" | "mo")) && !rest.contains(&"hans");
                Some(if traditional { Lang::ZhTw } else { Lang::ZhCn })
            }
            "pt" => Some(Lang::PtBr),
            // Hebrew's former code, which some systems still send.
            "iw" => Some(Lang::He),
            _ => TAGS.iter().find(|(t, _)| t.split('-').next() == Some(language)).map(|(_, l)| *l),
        }
    }

    /// The first language of an Accept-Language header that ships (by weight, then order).
    pub fn from_accept_language(header: &str) -> Option<Lang> {
        let mut ranges: Vec<(f32, usize, &str)> = header
            .split(',')
            .take(20)
            .enumerate()
            .filter_map(|(i, part)| {
                let mut fields = part.split(';');
                let range = fields.next()?.trim();
                let q = fields.find_map(|f| f.trim().strip_prefix("q=").and_then(|q| q.trim().parse::<f32>().ok())).unwrap_or(1.0);
                (q > 0.0 && range != "*").then_some((q, i, range))
            })
            .collect();
        ranges.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(&b.1)));
        ranges.into_iter().find_map(|(_, _, range)| Lang::matching(range))
    }

    /// The texts of the emails in this language.
    pub fn texts(self) -> &'static MailTexts {
        match self {
            Lang::En => &EN,
            Lang::Es => &ES,
            Lang::PtBr => &PT_BR,
            Lang::Fr => &FR,
            Lang::De => &DE,
            Lang::Ja => &JA,
            Lang::Ko => &KO,
            Lang::ZhCn => &ZH_CN,
            Lang::ZhTw => &ZH_TW,
            Lang::Ru => &RU,
            Lang::Tr => &TR,
            Lang::Ar => &AR,
            Lang::He => &HE,
        }
    }

    /// The texts of the device-approval page in this language.
    pub fn page(self) -> &'static PageTexts {
        match self {
            Lang::En => &PAGE_EN,
            Lang::Es => &PAGE_ES,
            Lang::PtBr => &PAGE_PT_BR,
            Lang::Fr => &PAGE_FR,
            Lang::De => &PAGE_DE,
            Lang::Ja => &PAGE_JA,
            Lang::Ko => &PAGE_KO,
            Lang::ZhCn => &PAGE_ZH_CN,
            Lang::ZhTw => &PAGE_ZH_TW,
            Lang::Ru => &PAGE_RU,
            Lang::Tr => &PAGE_TR,
            Lang::Ar => &PAGE_AR,
            Lang::He => &PAGE_HE,
        }
    }

    /// Whether the language is written right to left.
    pub fn rtl(self) -> bool {
        matches!(self, Lang::Ar | Lang::He)
    }
}

/// The request's language from its Accept-Language header (the frame sets it to the modal's
/// locale), English without one that ships.
#[derive(Debug, Clone, Copy)]
pub struct MailLang(pub Lang);

impl<S: Send + Sync> FromRequestParts<S> for MailLang {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, _: &S) -> Result<Self, Self::Rejection> {
        let header = parts.headers.get(header::ACCEPT_LANGUAGE).and_then(|v| v.to_str().ok()).unwrap_or_default();
        Ok(MailLang(Lang::from_accept_language(header).unwrap_or_default()))
    }
}

/// An email's texts; `{code}`, `{link}`, `{device}`, `{to}` and `{new_email}` are filled in.
pub struct MailTexts {
    pub login_subject: &'static str,
    pub login_body: &'static str,
    pub device_subject: &'static str,
    pub device_body: &'static str,
    pub change_subject: &'static str,
    pub change_text: &'static str,
    pub new_address_subject: &'static str,
    pub new_address_text: &'static str,
    pub export_subject: &'static str,
    pub export_text: &'static str,
    /// After a confirmation code's text.
    pub code_footer: &'static str,
}

/// The device-approval page's texts (the page the emailed link opens, and what its button
/// answers); `{email}` is filled in.
pub struct PageTexts {
    pub approve_title: &'static str,
    pub approve_intro: &'static str,
    pub approve_warning: &'static str,
    pub approve_button: &'static str,
    pub approved_title: &'static str,
    pub approved_text: &'static str,
    pub not_approved_title: &'static str,
    /// The link is unknown, used already or expired.
    pub unknown_title: &'static str,
    pub unknown_text: &'static str,
    pub failed_title: &'static str,
}

const EN: MailTexts = MailTexts {
    login_subject: "{code} is your Sigil login code",
    login_body: "Your login code is {code}.\n\nIt is valid for 10 minutes. If you did not ask for it, ignore this email.\n",
    device_subject: "Approve this device to log in",
    device_body: "Someone is logging in to your wallet from a new device: {device}.\n\nIf it is you, open this link and approve the device (it works once, for 10 minutes):\n{link}\n\nIf not, ignore this email: nobody can log in without the link.\n",
    change_subject: "{code} confirms changing your wallet's email to {new_email}",
    change_text: "Someone asked to change your wallet's email address from {to} to {new_email}.\n\nIf it is you, your code is {code}.",
    new_address_subject: "{code} confirms this address for your wallet",
    new_address_text: "To make {to} your wallet's email address, your code is {code}.",
    export_subject: "{code} confirms exporting your private key",
    export_text: "To see your wallet's private keys, your code is {code}.",
    code_footer: "It is valid for 10 minutes. If you did not ask for it, ignore this email: nothing changes without the code.\n",
};

const ES: MailTexts = MailTexts {
    login_subject: "{code} es tu código de acceso a Sigil",
    login_body: "Tu código de acceso es {code}.\n\nEs válido durante 10 minutos. Si no lo pediste, ignora este correo.\n",
    device_subject: "Aprueba este dispositivo para iniciar sesión",
    device_body: "Alguien está iniciando sesión en tu billetera desde un dispositivo nuevo: {device}.\n\nSi eres tú, abre este enlace y aprueba el dispositivo (funciona una sola vez, durante 10 minutos):\n{link}\n\nSi no, ignora este correo: nadie puede iniciar sesión sin el enlace.\n",
    change_subject: "{code} confirma el cambio del correo de tu billetera a {new_email}",
    change_text: "Alguien pidió cambiar el correo de tu billetera de {to} a {new_email}.\n\nSi fuiste tú, tu código es {code}.",
    new_address_subject: "{code} confirma esta dirección para tu billetera",
    new_address_text: "Para que {to} sea el correo de tu billetera, tu código es {code}.",
    export_subject: "{code} confirma la exportación de tu clave privada",
    export_text: "Para ver las claves privadas de tu billetera, tu código es {code}.",
    code_footer: "Es válido durante 10 minutos. Si no lo pediste, ignora este correo: nada cambia sin el código.\n",
};

const PT_BR: MailTexts = MailTexts {
    login_subject: "{code} é o seu código de acesso ao Sigil",
    login_body: "Seu código de acesso é {code}.\n\nEle vale por 10 minutos. Se você não o pediu, ignore este e-mail.\n",
    device_subject: "Aprove este dispositivo para entrar",
    device_body: "Alguém está entrando na sua carteira por um dispositivo novo: {device}.\n\nSe for você, abra este link e aprove o dispositivo (ele funciona uma vez, por 10 minutos):\n{link}\n\nSe não for, ignore este e-mail: ninguém entra sem o link.\n",
    change_subject: "{code} confirma a troca do e-mail da sua carteira para {new_email}",
    change_text: "Alguém pediu para trocar o e-mail da sua carteira de {to} para {new_email}.\n\nSe foi você, seu código é {code}.",
    new_address_subject: "{code} confirma este endereço para a sua carteira",
    new_address_text: "Para que {to} seja o e-mail da sua carteira, seu código é {code}.",
    export_subject: "{code} confirma a exportação da sua chave privada",
    export_text: "Para ver as chaves privadas da sua carteira, seu código é {code}.",
    code_footer: "Ele vale por 10 minutos. Se você não o pediu, ignore este e-mail: nada muda sem o código.\n",
};

const FR: MailTexts = MailTexts {
    login_subject: "{code} est votre code de connexion Sigil",
    login_body: "Votre code de connexion est {code}.\n\nIl est valable 10 minutes. Si vous ne l’avez pas demandé, ignorez cet e-mail.\n",
    device_subject: "Approuvez cet appareil pour vous connecter",
    device_body: "Quelqu’un se connecte à votre portefeuille depuis un nouvel appareil : {device}.\n\nSi c’est vous, ouvrez ce lien et approuvez l’appareil (il ne sert qu’une fois, pendant 10 minutes) :\n{link}\n\nSinon, ignorez cet e-mail : personne ne peut se connecter sans le lien.\n",
    change_subject: "{code} confirme le changement de l’e-mail de votre portefeuille pour {new_email}",
    change_text: "Quelqu’un a demandé à remplacer l’adresse e-mail de votre portefeuille, {to}, par {new_email}.\n\nSi c’est vous, votre code est {code}.",
    new_address_subject: "{code} confirme cette adresse pour votre portefeuille",
    new_address_text: "Pour que {to} devienne l’adresse e-mail de votre portefeuille, votre code est {code}.",
    export_subject: "{code} confirme l’export de votre clé privée",
    export_text: "Pour voir les clés privées de votre portefeuille, votre code est {code}.",
    code_footer: "Il est valable 10 minutes. Si vous ne l’avez pas demandé, ignorez cet e-mail : rien ne change sans le code.\n",
};

const DE: MailTexts = MailTexts {
    login_subject: "{code} ist dein Sigil-Anmeldecode",
    login_body: "Dein Anmeldecode lautet {code}.\n\nEr gilt 10 Minuten. Wenn du ihn nicht angefordert hast, ignoriere diese E-Mail.\n",
    device_subject: "Bestätige dieses Gerät für die Anmeldung",
    device_body: "Jemand meldet sich von einem neuen Gerät bei deiner Wallet an: {device}.\n\nWenn du das bist, öffne diesen Link und bestätige das Gerät (er funktioniert einmal, 10 Minuten lang):\n{link}\n\nWenn nicht, ignoriere diese E-Mail: Ohne den Link kann sich niemand anmelden.\n",
    change_subject: "{code} bestätigt die neue E-Mail-Adresse {new_email} für deine Wallet",
    change_text: "Jemand möchte die E-Mail-Adresse deiner Wallet von {to} auf {new_email} ändern.\n\nWenn du das bist, lautet dein Code {code}.",
    new_address_subject: "{code} bestätigt diese Adresse für deine Wallet",
    new_address_text: "Damit {to} die E-Mail-Adresse deiner Wallet wird, lautet dein Code {code}.",
    export_subject: "{code} bestätigt den Export deines privaten Schlüssels",
    export_text: "Um die privaten Schlüssel deiner Wallet zu sehen, lautet dein Code {code}.",
    code_footer: "Er gilt 10 Minuten. Wenn du ihn nicht angefordert hast, ignoriere diese E-Mail: Ohne den Code ändert sich nichts.\n",
};

const JA: MailTexts = MailTexts {
    login_subject: "{code} は Sigil のログインコードです",
    login_body: "ログインコードは {code} です。\n\n有効期間は10分です。心当たりがない場合は、このメールを無視してください。\n",
    device_subject: "ログインするには、このデバイスを承認してください",
    device_body: "新しいデバイスからあなたのウォレットへのログインがあります: {device}\n\nご本人の場合は、次のリンクを開いてデバイスを承認してください（1回のみ、10分間有効）:\n{link}\n\n心当たりがない場合は、このメールを無視してください。リンクがなければ誰もログインできません。\n",
    change_subject: "{code}: ウォレットのメールアドレスを {new_email} に変更するための確認コード",
    change_text: "ウォレットのメールアドレスを {to} から {new_email} に変更するリクエストがありました。\n\nご本人の場合、コードは {code} です。",
    new_address_subject: "{code}: このアドレスをウォレットに設定するための確認コード",
    new_address_text: "{to} をウォレットのメールアドレスにするためのコードは {code} です。",
    export_subject: "{code}: 秘密鍵のエクスポートの確認コード",
    export_text: "ウォレットの秘密鍵を表示するためのコードは {code} です。",
    code_footer: "有効期間は10分です。心当たりがない場合は、このメールを無視してください。コードがなければ何も変わりません。\n",
};

const KO: MailTexts = MailTexts {
    login_subject: "Sigil 로그인 코드: {code}",
    login_body: "로그인 코드는 {code}입니다.\n\n10분 동안 유효합니다. 요청한 적이 없다면 이 이메일을 무시하세요.\n",
    device_subject: "로그인하려면 이 기기를 승인하세요",
    device_body: "새 기기에서 지갑에 로그인하려는 시도가 있습니다: {device}.\n\n본인이라면 이 링크를 열어 기기를 승인하세요(한 번만, 10분 동안 사용할 수 있습니다):\n{link}\n\n본인이 아니라면 이 이메일을 무시하세요. 링크 없이는 아무도 로그인할 수 없습니다.\n",
    change_subject: "{code}: 지갑 이메일을 {new_email}(으)로 변경하기 위한 확인 코드",
    change_text: "지갑의 이메일 주소를 {to}에서 {new_email}(으)로 변경해 달라는 요청이 있었습니다.\n\n본인이라면 코드는 {code}입니다.",
    new_address_subject: "{code}: 이 주소를 지갑 이메일로 확인하는 코드",
    new_address_text: "{to}을(를) 지갑의 이메일 주소로 지정하기 위한 코드는 {code}입니다.",
    export_subject: "{code}: 개인 키 내보내기 확인 코드",
    export_text: "지갑의 개인 키를 보기 위한 코드는 {code}입니다.",
    code_footer: "10분 동안 유효합니다. 요청한 적이 없다면 이 이메일을 무시하세요. 코드 없이는 아무것도 바뀌지 않습니다.\n",
};

const ZH_CN: MailTexts = MailTexts {
    login_subject: "{code} 是你的 Sigil 登录验证码",
    login_body: "你的登录验证码是 {code}。\n\n10 分钟内有效。如果不是你本人请求的，请忽略这封邮件。\n",
    device_subject: "批准此设备以登录",
    device_body: "有人正在从新设备登录你的钱包：{device}。\n\n如果是你本人，请打开此链接并批准该设备（只能使用一次，10 分钟内有效）：\n{link}\n\n如果不是，请忽略这封邮件：没有此链接，任何人都无法登录。\n",
    change_subject: "{code}：确认将钱包邮箱更改为 {new_email}",
    change_text: "有人请求将你钱包的邮箱地址从 {to} 更改为 {new_email}。\n\n如果是你本人，验证码是 {code}。",
    new_address_subject: "{code}：确认将此地址用于你的钱包",
    new_address_text: "要将 {to} 设为你钱包的邮箱地址，验证码是 {code}。",
    export_subject: "{code}：确认导出你的私钥",
    export_text: "要查看你钱包的私钥，验证码是 {code}。",
    code_footer: "10 分钟内有效。如果不是你本人请求的，请忽略这封邮件：没有验证码，什么都不会改变。\n",
};

const ZH_TW: MailTexts = MailTexts {
    login_subject: "{code} 是你的 Sigil 登入驗證碼",
    login_body: "你的登入驗證碼是 {code}。\n\n10 分鐘內有效。如果不是你本人提出的，請忽略這封郵件。\n",
    device_subject: "核准此裝置以登入",
    device_body: "有人正在從新裝置登入你的錢包：{device}。\n\n如果是你本人，請開啟此連結並核准該裝置（只能使用一次，10 分鐘內有效）：\n{link}\n\n如果不是，請忽略這封郵件：沒有此連結，任何人都無法登入。\n",
    change_subject: "{code}：確認將錢包電子郵件變更為 {new_email}",
    change_text: "有人要求將你錢包的電子郵件地址從 {to} 變更為 {new_email}。\n\n如果是你本人，驗證碼是 {code}。",
    new_address_subject: "{code}：確認將此地址用於你的錢包",
    new_address_text: "要將 {to} 設為你錢包的電子郵件地址，驗證碼是 {code}。",
    export_subject: "{code}：確認匯出你的私鑰",
    export_text: "要查看你錢包的私鑰，驗證碼是 {code}。",
    code_footer: "10 分鐘內有效。如果不是你本人提出的，請忽略這封郵件：沒有驗證碼，什麼都不會改變。\n",
};

const RU: MailTexts = MailTexts {
    login_subject: "{code} — ваш код для входа в Sigil",
    login_body: "Ваш код для входа: {code}.\n\nОн действует 10 минут. Если вы его не запрашивали, не обращайте внимания на это письмо.\n",
    device_subject: "Подтвердите это устройство, чтобы войти",
    device_body: "Кто-то входит в ваш кошелёк с нового устройства: {device}.\n\nЕсли это вы, откройте ссылку и подтвердите устройство (она сработает один раз в течение 10 минут):\n{link}\n\nЕсли нет, не обращайте внимания на это письмо: без ссылки никто не войдёт.\n",
    change_subject: "{code} — подтверждение смены email кошелька на {new_email}",
    change_text: "Кто-то попросил сменить email вашего кошелька с {to} на {new_email}.\n\nЕсли это вы, ваш код: {code}.",
    new_address_subject: "{code} — подтверждение этого адреса для кошелька",
    new_address_text: "Чтобы {to} стал email-адресом вашего кошелька, введите код {code}.",
    export_subject: "{code} — подтверждение экспорта закрытого ключа",
    export_text: "Чтобы увидеть закрытые ключи кошелька, введите код {code}.",
    code_footer: "Код действует 10 минут. Если вы его не запрашивали, не обращайте внимания на это письмо: без кода ничего не изменится.\n",
};

const TR: MailTexts = MailTexts {
    login_subject: "Sigil giriş kodunuz: {code}",
    login_body: "Giriş kodunuz: {code}.\n\n10 dakika geçerlidir. Bu kodu siz istemediyseniz bu e-postayı yok sayın.\n",
    device_subject: "Giriş yapmak için bu cihazı onaylayın",
    device_body: "Biri yeni bir cihazdan cüzdanınıza giriş yapıyor: {device}.\n\nBu sizseniz, bu bağlantıyı açıp cihazı onaylayın (bir kez ve 10 dakika boyunca çalışır):\n{link}\n\nSiz değilseniz bu e-postayı yok sayın: bağlantı olmadan kimse giriş yapamaz.\n",
    change_subject: "{code}: cüzdan e-postanızı {new_email} olarak değiştirme onayı",
    change_text: "Biri cüzdanınızın e-posta adresini {to} yerine {new_email} yapmak istedi.\n\nBu sizseniz kodunuz: {code}.",
    new_address_subject: "{code}: bu adresi cüzdanınız için onaylama kodu",
    new_address_text: "{to} adresini cüzdanınızın e-posta adresi yapmak için kodunuz: {code}.",
    export_subject: "{code}: özel anahtarınızı dışa aktarma onayı",
    export_text: "Cüzdanınızın özel anahtarlarını görmek için kodunuz: {code}.",
    code_footer: "Kod 10 dakika geçerlidir. Bunu siz istemediyseniz bu e-postayı yok sayın: kod olmadan hiçbir şey değişmez.\n",
};

const AR: MailTexts = MailTexts {
    login_subject: "{code} هو رمز تسجيل الدخول إلى Sigil",
    login_body: "رمز تسجيل الدخول الخاص بك هو {code}.\n\nالرمز صالح لمدة 10 دقائق. إذا لم تطلبه، فتجاهل هذه الرسالة.\n",
    device_subject: "وافق على هذا الجهاز لتسجيل الدخول",
    device_body: "يحاول شخص ما تسجيل الدخول إلى محفظتك من جهاز جديد: {device}.\n\nإذا كنت أنت، فافتح هذا الرابط ووافق على الجهاز (يعمل مرة واحدة فقط، لمدة 10 دقائق):\n{link}\n\nوإن لم تكن أنت، فتجاهل هذه الرسالة: لا يمكن لأحد تسجيل الدخول من دون الرابط.\n",
    change_subject: "{code} لتأكيد تغيير بريد محفظتك إلى {new_email}",
    change_text: "طلب شخص ما تغيير عنوان البريد الإلكتروني لمحفظتك من {to} إلى {new_email}.\n\nإذا كنت أنت، فرمزك هو {code}.",
    new_address_subject: "{code} لتأكيد هذا العنوان لمحفظتك",
    new_address_text: "ليصبح {to} عنوان البريد الإلكتروني لمحفظتك، رمزك هو {code}.",
    export_subject: "{code} لتأكيد تصدير مفتاحك الخاص",
    export_text: "لعرض المفاتيح الخاصة لمحفظتك، رمزك هو {code}.",
    code_footer: "الرمز صالح لمدة 10 دقائق. إذا لم تطلبه، فتجاهل هذه الرسالة: لا يتغير شيء من دون الرمز.\n",
};

const HE: MailTexts = MailTexts {
    login_subject: "{code} הוא קוד הכניסה שלך ל-Sigil",
    login_body: "קוד הכניסה שלך הוא {code}.\n\nהקוד תקף למשך 10 דקות. אם לא ביקשת אותו, אפשר להתעלם מההודעה.\n",
    device_subject: "יש לאשר את המכשיר הזה כדי להיכנס",
    device_body: "מישהו נכנס לארנק שלך ממכשיר חדש: {device}.\n\nאם הכניסה שלך, יש לפתוח את הקישור ולאשר את המכשיר (הקישור פועל פעם אחת, למשך 10 דקות):\n{link}\n\nאם לא, אפשר להתעלם מההודעה: בלי הקישור אף אחד לא יכול להיכנס.\n",
    change_subject: "{code} לאישור החלפת האימייל של הארנק ל-{new_email}",
    change_text: "התקבלה בקשה להחליף את כתובת האימייל של הארנק שלך מ-{to} ל-{new_email}.\n\nאם הבקשה שלך, הקוד שלך הוא {code}.",
    new_address_subject: "{code} לאישור הכתובת הזו עבור הארנק שלך",
    new_address_text: "כדי ש-{to} תהיה כתובת האימייל של הארנק שלך, הקוד שלך הוא {code}.",
    export_subject: "{code} לאישור ייצוא המפתח הפרטי שלך",
    export_text: "כדי לראות את המפתחות הפרטיים של הארנק שלך, הקוד שלך הוא {code}.",
    code_footer: "הקוד תקף למשך 10 דקות. אם לא ביקשת אותו, אפשר להתעלם מההודעה: שום דבר לא משתנה בלי הקוד.\n",
};

const PAGE_EN: PageTexts = PageTexts {
    approve_title: "Approve the device?",
    approve_intro: "A new device wants to log in to the wallet of {email}:",
    approve_warning: "Approve it only if this is you, logging in right now.",
    approve_button: "Approve this device",
    approved_title: "Device approved",
    approved_text: "This device is approved. Go back to the page you were logging in on.",
    not_approved_title: "Not approved",
    unknown_title: "Link not valid",
    unknown_text: "This approval link is unknown, was used already or has expired. Log in again to get a new one.",
    failed_title: "Something went wrong",
};

const PAGE_ES: PageTexts = PageTexts {
    approve_title: "¿Aprobar el dispositivo?",
    approve_intro: "Un dispositivo nuevo quiere iniciar sesión en la billetera de {email}:",
    approve_warning: "Apruébalo solo si eres tú quien está iniciando sesión ahora mismo.",
    approve_button: "Aprobar este dispositivo",
    approved_title: "Dispositivo aprobado",
    approved_text: "El dispositivo está aprobado. Vuelve a la página en la que estabas iniciando sesión.",
    not_approved_title: "No aprobado",
    unknown_title: "Enlace no válido",
    unknown_text: "Este enlace de aprobación no existe, ya se usó o ha caducado. Vuelve a iniciar sesión para recibir uno nuevo.",
    failed_title: "Algo salió mal",
};

const PAGE_PT_BR: PageTexts = PageTexts {
    approve_title: "Aprovar o dispositivo?",
    approve_intro: "Um dispositivo novo quer entrar na carteira de {email}:",
    approve_warning: "Aprove somente se for você entrando agora mesmo.",
    approve_button: "Aprovar este dispositivo",
    approved_title: "Dispositivo aprovado",
    approved_text: "O dispositivo foi aprovado. Volte à página em que você estava entrando.",
    not_approved_title: "Não aprovado",
    unknown_title: "Link inválido",
    unknown_text: "Este link de aprovação é desconhecido, já foi usado ou expirou. Entre de novo para receber outro.",
    failed_title: "Algo deu errado",
};

const PAGE_FR: PageTexts = PageTexts {
    approve_title: "Approuver l’appareil ?",
    approve_intro: "Un nouvel appareil veut se connecter au portefeuille de {email} :",
    approve_warning: "Approuvez-le seulement si c’est vous qui vous connectez en ce moment.",
    approve_button: "Approuver cet appareil",
    approved_title: "Appareil approuvé",
    approved_text: "L’appareil est approuvé. Revenez à la page sur laquelle vous vous connectiez.",
    not_approved_title: "Non approuvé",
    unknown_title: "Lien non valide",
    unknown_text: "Ce lien d’approbation est inconnu, a déjà servi ou a expiré. Reconnectez-vous pour en recevoir un nouveau.",
    failed_title: "Une erreur s’est produite",
};

const PAGE_DE: PageTexts = PageTexts {
    approve_title: "Gerät bestätigen?",
    approve_intro: "Ein neues Gerät möchte sich bei der Wallet von {email} anmelden:",
    approve_warning: "Bestätige es nur, wenn du das bist und dich gerade jetzt anmeldest.",
    approve_button: "Dieses Gerät bestätigen",
    approved_title: "Gerät bestätigt",
    approved_text: "Das Gerät ist bestätigt. Geh zurück zu der Seite, auf der du dich gerade anmeldest.",
    not_approved_title: "Nicht bestätigt",
    unknown_title: "Link ungültig",
    unknown_text: "Dieser Bestätigungslink ist unbekannt, wurde schon benutzt oder ist abgelaufen. Melde dich erneut an, um einen neuen zu bekommen.",
    failed_title: "Etwas ist schiefgelaufen",
};

const PAGE_JA: PageTexts = PageTexts {
    approve_title: "デバイスを承認しますか？",
    approve_intro: "新しいデバイスが {email} のウォレットにログインしようとしています:",
    approve_warning: "今まさにご本人がログインしている場合のみ承認してください。",
    approve_button: "このデバイスを承認する",
    approved_title: "デバイスを承認しました",
    approved_text: "デバイスが承認されました。ログイン中のページに戻ってください。",
    not_approved_title: "承認できませんでした",
    unknown_title: "無効なリンクです",
    unknown_text: "この承認リンクは無効か、使用済みか、有効期限が切れています。もう一度ログインして、新しいリンクを受け取ってください。",
    failed_title: "問題が発生しました",
};

const PAGE_KO: PageTexts = PageTexts {
    approve_title: "이 기기를 승인할까요?",
    approve_intro: "새 기기가 {email} 지갑에 로그인하려고 합니다:",
    approve_warning: "지금 로그인하고 있는 사람이 본인일 때만 승인하세요.",
    approve_button: "이 기기 승인",
    approved_title: "기기 승인 완료",
    approved_text: "기기가 승인되었습니다. 로그인하던 페이지로 돌아가세요.",
    not_approved_title: "승인되지 않았습니다",
    unknown_title: "유효하지 않은 링크",
    unknown_text: "알 수 없거나 이미 사용되었거나 만료된 승인 링크입니다. 다시 로그인하여 새 링크를 받으세요.",
    failed_title: "문제가 발생했습니다",
};

const PAGE_ZH_CN: PageTexts = PageTexts {
    approve_title: "批准此设备？",
    approve_intro: "有新设备想要登录 {email} 的钱包：",
    approve_warning: "只有当正在登录的人就是你本人时，才批准。",
    approve_button: "批准此设备",
    approved_title: "设备已批准",
    approved_text: "该设备已获批准。请返回你正在登录的页面。",
    not_approved_title: "未批准",
    unknown_title: "链接无效",
    unknown_text: "此批准链接无效、已被使用或已过期。请重新登录以获取新链接。",
    failed_title: "出了点问题",
};

const PAGE_ZH_TW: PageTexts = PageTexts {
    approve_title: "核准此裝置？",
    approve_intro: "有新裝置想要登入 {email} 的錢包：",
    approve_warning: "只有當正在登入的人就是你本人時，才核准。",
    approve_button: "核准此裝置",
    approved_title: "裝置已核准",
    approved_text: "該裝置已獲核准。請返回你正在登入的頁面。",
    not_approved_title: "未核准",
    unknown_title: "連結無效",
    unknown_text: "此核准連結無效、已被使用或已過期。請重新登入以取得新連結。",
    failed_title: "發生了一些問題",
};

const PAGE_RU: PageTexts = PageTexts {
    approve_title: "Подтвердить устройство?",
    approve_intro: "Новое устройство хочет войти в кошелёк {email}:",
    approve_warning: "Подтверждайте, только если это вы входите прямо сейчас.",
    approve_button: "Подтвердить это устройство",
    approved_title: "Устройство подтверждено",
    approved_text: "Устройство подтверждено. Вернитесь на страницу, на которой вы входили.",
    not_approved_title: "Не подтверждено",
    unknown_title: "Ссылка недействительна",
    unknown_text: "Эта ссылка для подтверждения неизвестна, уже использована или устарела. Войдите снова, чтобы получить новую.",
    failed_title: "Что-то пошло не так",
};

const PAGE_TR: PageTexts = PageTexts {
    approve_title: "Cihaz onaylansın mı?",
    approve_intro: "Yeni bir cihaz, {email} adresine ait cüzdana giriş yapmak istiyor:",
    approve_warning: "Yalnızca şu anda giriş yapan sizseniz onaylayın.",
    approve_button: "Bu cihazı onayla",
    approved_title: "Cihaz onaylandı",
    approved_text: "Cihaz onaylandı. Giriş yaptığınız sayfaya geri dönün.",
    not_approved_title: "Onaylanmadı",
    unknown_title: "Bağlantı geçersiz",
    unknown_text: "Bu onay bağlantısı bilinmiyor, daha önce kullanılmış ya da süresi dolmuş. Yenisini almak için tekrar giriş yapın.",
    failed_title: "Bir şeyler ters gitti",
};

const PAGE_AR: PageTexts = PageTexts {
    approve_title: "هل توافق على هذا الجهاز؟",
    approve_intro: "يريد جهاز جديد تسجيل الدخول إلى محفظة {email}:",
    approve_warning: "لا توافق عليه إلا إذا كنت أنت من يسجّل الدخول الآن.",
    approve_button: "الموافقة على هذا الجهاز",
    approved_title: "تمت الموافقة على الجهاز",
    approved_text: "تمت الموافقة على الجهاز. ارجع إلى الصفحة التي كنت تسجّل الدخول منها.",
    not_approved_title: "لم تتم الموافقة",
    unknown_title: "الرابط غير صالح",
    unknown_text: "رابط الموافقة هذا غير معروف، أو استُخدم من قبل، أو انتهت صلاحيته. سجّل الدخول مرة أخرى للحصول على رابط جديد.",
    failed_title: "حدث خطأ ما",
};

const PAGE_HE: PageTexts = PageTexts {
    approve_title: "לאשר את המכשיר?",
    approve_intro: "מכשיר חדש מבקש להיכנס לארנק של {email}:",
    approve_warning: "יש לאשר רק אם זו הכניסה שלך, ממש עכשיו.",
    approve_button: "אישור המכשיר הזה",
    approved_title: "המכשיר אושר",
    approved_text: "המכשיר אושר. אפשר לחזור לדף שבו ביצעת את הכניסה.",
    not_approved_title: "לא אושר",
    unknown_title: "הקישור לא תקף",
    unknown_text: "קישור האישור הזה לא מוכר, כבר נעשה בו שימוש או שפג תוקפו. יש להיכנס שוב כדי לקבל קישור חדש.",
    failed_title: "משהו השתבש",
};

#[cfg(test)]
mod tests {
    use super::*;
    use sigil_core::template::fill;

    /// The language for a tag as the routes take it; English for a missing or unknown one.
    fn pick(tag: Option<&str>) -> Lang {
        tag.and_then(Lang::matching).unwrap_or_default()
    }

    #[test]
    fn picks_a_shipped_language_by_tag_and_falls_back_to_english() {
        assert_eq!(pick(Some("de")), Lang::De);
        assert_eq!(pick(Some("pt-BR")), Lang::PtBr);
        assert_eq!(pick(Some("PT-br")), Lang::PtBr);
        assert_eq!(pick(Some("pt-PT")), Lang::PtBr);
        assert_eq!(pick(Some("de-AT")), Lang::De);
        assert_eq!(pick(Some("zh-CN")), Lang::ZhCn);
        assert_eq!(pick(Some("zh")), Lang::ZhCn);
        assert_eq!(pick(Some("zh-HK")), Lang::ZhTw);
        assert_eq!(pick(Some("zh-Hant")), Lang::ZhTw);
        assert_eq!(pick(Some("zh-Hans-HK")), Lang::ZhCn);
        assert_eq!(pick(Some("iw")), Lang::He);
        assert_eq!(pick(Some("ar-EG")), Lang::Ar);
        // Unknown, missing or not a tag at all: English.
        assert_eq!(pick(Some("nl")), Lang::En);
        assert_eq!(pick(Some("")), Lang::En);
        assert_eq!(pick(None), Lang::En);
        assert_eq!(pick(Some("de\r\nBcc: x@y.z")), Lang::En);
        assert_eq!(pick(Some("../../etc/passwd")), Lang::En);
        assert_eq!(pick(Some(&"a".repeat(100))), Lang::En);
    }

    #[test]
    fn every_tag_round_trips() {
        for (tag, lang) in Lang::all() {
            assert_eq!(pick(Some(tag)), lang, "{tag}");
            assert_eq!(lang.tag(), tag);
        }
        assert_eq!(Lang::all().count(), 13);
    }

    #[test]
    fn reads_accept_language_by_weight() {
        assert_eq!(Lang::from_accept_language("fr-CH, fr;q=0.9, en;q=0.8"), Some(Lang::Fr));
        assert_eq!(Lang::from_accept_language("nl-NL,nl;q=0.9,ja;q=0.5,en;q=0.8"), Some(Lang::En));
        assert_eq!(Lang::from_accept_language("en;q=0.1, he"), Some(Lang::He));
        assert_eq!(Lang::from_accept_language("nl, sv"), None);
        assert_eq!(Lang::from_accept_language("*"), None);
        assert_eq!(Lang::from_accept_language("de;q=0"), None);
        assert_eq!(Lang::from_accept_language(""), None);
    }

    #[test]
    fn every_language_says_the_code_link_and_addresses() {
        let values = [("code", "§CODE"), ("link", "§LINK"), ("device", "§DEVICE"), ("to", "§TO"), ("new_email", "§NEW")];
        for (tag, lang) in Lang::all() {
            let t = lang.texts();
            let has = |template: &str, wanted: &[&str]| {
                let text = fill(template, &values);
                for w in wanted {
                    assert!(text.contains(w), "{tag}: {w} missing in {text}");
                }
                assert!(!text.contains('{'), "{tag}: a placeholder left in {text}");
            };
            has(t.login_subject, &["§CODE"]);
            has(t.login_body, &["§CODE"]);
            has(t.device_subject, &[]);
            has(t.device_body, &["§DEVICE", "§LINK"]);
            has(t.change_subject, &["§CODE", "§NEW"]);
            has(t.change_text, &["§TO", "§NEW", "§CODE"]);
            has(t.new_address_subject, &["§CODE"]);
            has(t.new_address_text, &["§TO", "§CODE"]);
            has(t.export_subject, &["§CODE"]);
            has(t.export_text, &["§CODE"]);
            has(t.code_footer, &[]);
            if lang != Lang::En {
                assert_ne!(t.login_body, EN.login_body, "{tag} is not English");
            }
        }
    }

    #[test]
    fn every_language_has_the_approval_pages_words() {
        for (tag, lang) in Lang::all() {
            let p = lang.page();
            let texts = [
                p.approve_title,
                p.approve_intro,
                p.approve_warning,
                p.approve_button,
                p.approved_title,
                p.approved_text,
                p.not_approved_title,
                p.unknown_title,
                p.unknown_text,
                p.failed_title,
            ];
            for text in texts {
                assert!(!text.trim().is_empty(), "{tag}: an empty page text");
                if text != p.approve_intro {
                    assert!(!text.contains('{'), "{tag}: a placeholder in {text}");
                }
            }
            let intro = fill(p.approve_intro, &[("email", "§EMAIL")]);
            assert!(intro.contains("§EMAIL") && !intro.contains('{'), "{tag}: {intro}");
            if lang != Lang::En {
                assert_ne!(p.approve_button, PAGE_EN.approve_button, "{tag} is not English");
                assert_ne!(p.approve_warning, PAGE_EN.approve_warning, "{tag} is not English");
            }
            assert_eq!(lang.rtl(), matches!(tag, "ar" | "he"), "{tag}");
        }
    }
}
