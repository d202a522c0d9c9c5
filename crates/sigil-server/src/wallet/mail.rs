//! Email for the embedded wallet, sent over SMTP (lettre): login codes, device approval
//! links, and the codes that confirm an email change or a key export. The codes and links
//! are secrets: they go into the message and nowhere else (never the log). Each is written in the
//! visitor's language (./mail_lang.rs).

use lettre::message::Mailbox;
use lettre::transport::smtp::authentication::Credentials;
use lettre::transport::smtp::client::{Tls, TlsParameters};
use lettre::{AsyncSmtpTransport, AsyncTransport, Message, Tokio1Executor};

use super::mail_lang::Lang;
use sigil_core::template::fill;

/// How the server talks to its mail server.
#[derive(Debug, Clone, Copy, PartialEq, Eq, clap::ValueEnum, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SmtpTls {
    /// Plain SMTP (a local relay or test sink).
    None,
    /// SMTP upgraded with STARTTLS (usually port 587).
    Starttls,
    /// SMTP over TLS from the start (usually port 465).
    Tls,
}

impl std::str::FromStr for SmtpTls {
    type Err = crate::config::Invalid;
    fn from_str(s: &str) -> Result<Self, crate::config::Invalid> {
        <SmtpTls as clap::ValueEnum>::from_str(s, true).map_err(crate::config::Invalid)
    }
}

#[derive(Debug, Clone)]
pub struct MailSettings {
    pub host: String,
    pub port: u16,
    pub tls: SmtpTls,
    pub username: Option<String>,
    pub password: Option<String>,
    pub from: String,
}

impl MailSettings {
    /// The mail server of the wallet's settings; none without `--smtp-host`.
    pub fn of(w: &crate::config::WalletSettings) -> Option<MailSettings> {
        Some(MailSettings {
            host: w.smtp_host.clone()?,
            port: w.smtp_port,
            tls: w.smtp_tls,
            username: w.smtp_username.clone(),
            password: w.smtp_password.clone(),
            from: w.mail_from.clone(),
        })
    }
}

/// Why the mail settings cannot be used.
#[derive(Debug, thiserror::Error)]
pub enum MailConfigError {
    #[error("mail-from '{0}': {1}")]
    From(String, String),
    #[error("smtp-host '{0}': {1}")]
    Tls(String, String),
}

#[derive(Debug, thiserror::Error)]
pub enum MailError {
    #[error("the email address is not valid")]
    Address,
    #[error("the mail server refused or could not be reached: {0}")]
    Send(String),
}

pub struct Mailer {
    transport: AsyncSmtpTransport<Tokio1Executor>,
    from: Mailbox,
}

impl Mailer {
    pub fn new(settings: &MailSettings) -> Result<Mailer, MailConfigError> {
        let from: Mailbox = settings.from.parse().map_err(|e: lettre::address::AddressError| MailConfigError::From(settings.from.clone(), e.to_string()))?;
        let mut builder = AsyncSmtpTransport::<Tokio1Executor>::builder_dangerous(&settings.host).port(settings.port);
        let tls = || TlsParameters::new(settings.host.clone()).map_err(|e| MailConfigError::Tls(settings.host.clone(), e.to_string()));
        builder = match settings.tls {
            SmtpTls::None => builder.tls(Tls::None),
            SmtpTls::Starttls => builder.tls(Tls::Required(tls()?)),
            SmtpTls::Tls => builder.tls(Tls::Wrapper(tls()?)),
        };
        if let (Some(user), Some(pass)) = (&settings.username, &settings.password) {
            builder = builder.credentials(Credentials::new(user.clone(), pass.clone()));
        }
        Ok(Mailer { transport: builder.timeout(Some(std::time::Duration::from_secs(10))).build(), from })
    }

    async fn send(&self, to: &str, subject: &str, body: String) -> Result<(), MailError> {
        let to: Mailbox = to.parse().map_err(|_| MailError::Address)?;
        let message = Message::builder().from(self.from.clone()).to(to).subject(subject).body(body).map_err(|e| MailError::Send(e.to_string()))?;
        self.transport.send(message).await.map(|_| ()).map_err(|e| MailError::Send(e.to_string()))
    }

    /// A login code, in `lang`.
    pub async fn login_code(&self, to: &str, code: &str, lang: Lang) -> Result<(), MailError> {
        let t = lang.texts();
        let values = [("code", code)];
        self.send(to, &fill(t.login_subject, &values), fill(t.login_body, &values)).await
    }

    /// `device`: the browser, system and time of the login ("Chrome on Linux, 2026-11-26 12:30 UTC").
    pub async fn device_approval(&self, to: &str, link: &str, device: &str, lang: Lang) -> Result<(), MailError> {
        let t = lang.texts();
        self.send(to, t.device_subject, fill(t.device_body, &[("device", device), ("link", link)])).await
    }

    /// A code that confirms a step on the wallet; the subject and text say which step, to the
    /// address they are sent to, in `lang`.
    pub async fn confirm_code(&self, to: &str, code: &str, step: Confirm<'_>, lang: Lang) -> Result<(), MailError> {
        let t = lang.texts();
        let (subject, text, new_email) = match step {
            Confirm::EmailChange { new_email } => (t.change_subject, t.change_text, new_email),
            Confirm::NewAddress => (t.new_address_subject, t.new_address_text, ""),
            Confirm::Export => (t.export_subject, t.export_text, ""),
        };
        let values = [("code", code), ("to", to), ("new_email", new_email)];
        self.send(to, &fill(subject, &values), format!("{}\n\n{}", fill(text, &values), t.code_footer)).await
    }
}

/// The step a confirmation code is for.
#[derive(Debug, Clone, Copy)]
pub enum Confirm<'a> {
    /// To the current address: the wallet's email is to become `new_email`.
    EmailChange {
        new_email: &'a str,
    },
    /// To the new address, once the current one confirmed.
    NewAddress,
    Export,
}
