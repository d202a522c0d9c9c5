/** Spec section 2 timings (ms). */
export const TIMINGS = {
  viewTransition: 150,
  headerText: 120,
  modalHeight: 150,
  shake: 500,
  goBackPostTimer: 100,
} as const

/**
 * The modal's whole stylesheet. It lives inside the shadow root: host page rules cannot reach
 * it and it cannot leak out. Host themeVariables (`sigil-*` keys) are set as custom properties
 * on `.root` and win over the palette defaults below.
 *
 * Opening shows the card and its wallet list at the first paint: no entrance animation from
 * opacity 0. A view that replaces another slides in, a new header title fades in (`.enter`).
 * Buttons are reset property by property rather than with `all:unset`, which makes the style
 * engine resolve every CSS property for each of them on the first open.
 */
export const MODAL_CSS = /* css */ `
:host{all:initial !important;position:fixed !important;top:0 !important;left:0 !important;width:0 !important;height:0 !important;z-index:var(--sigil-z-index,2147483000) !important;display:block !important}
*{box-sizing:border-box}
.root{
  --sigil-font-family:system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,sans-serif;
  --sigil-accent:#3b6cf6;--sigil-accent-fg:#fff;--sigil-border-radius-master:4px;
  --r-xs:calc(var(--sigil-border-radius-master)*2);--r-s:calc(var(--sigil-border-radius-master)*3);
  --r-m:calc(var(--sigil-border-radius-master)*4);--r-l:calc(var(--sigil-border-radius-master)*7);
  --t-view:${TIMINGS.viewTransition}ms;--t-header:${TIMINGS.headerText}ms;--t-height:${TIMINGS.modalHeight}ms;--t-shake:${TIMINGS.shake}ms;
  font-family:var(--sigil-font-family);font-size:15px;line-height:1.35;color:var(--c-fg);
  -webkit-font-smoothing:antialiased;text-align:start;
}
.root[data-theme=light]{--c-bg:#ffffff;--c-fg:#141414;--c-fg2:#5c6464;--c-fg3:#9aa3a3;--c-surface:#f3f4f4;--c-surface2:#e9ebeb;--c-border:rgba(0,0,0,.08);--c-overlay:rgba(0,0,0,.3);--c-error:#c0223a;--c-success:#08702f;--c-shadow:0 16px 48px rgba(0,0,0,.18)}
.root[data-theme=dark]{--c-bg:#121313;--c-fg:#e4e7e7;--c-fg2:#949e9e;--c-fg3:#6c7474;--c-surface:#1e2020;--c-surface2:#272a2a;--c-border:rgba(255,255,255,.08);--c-overlay:rgba(0,0,0,.55);--c-error:#f6737e;--c-success:#26d962;--c-shadow:0 16px 48px rgba(0,0,0,.5)}
.overlay{position:fixed;left:var(--vv-left,0);top:var(--vv-top,0);width:var(--vv-width,100%);height:var(--vv-height,100%);display:flex;align-items:center;justify-content:center;padding:8px;background:var(--c-overlay)}
.card{position:relative;width:360px;max-width:100%;max-height:100%;display:flex;flex-direction:column;background:var(--c-bg);color:var(--c-fg);border:1px solid var(--c-border);border-radius:var(--r-l);box-shadow:var(--c-shadow);overflow:hidden;outline:none}
.card:focus,.card:focus-visible{outline:none !important}
.card.shake{animation:shake var(--t-shake) cubic-bezier(.36,.07,.19,.97) both}
.header{display:grid;grid-template-columns:40px 1fr 40px;align-items:center;gap:8px;padding:14px 14px 6px}
.title{margin:0;text-align:center;font-size:16px;font-weight:600;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.title.enter{animation:fade var(--t-header) ease both}
.sizer{transition:height var(--t-height) ease;overflow:hidden;min-height:0}
.body{padding:8px 14px 14px}
.view.enter{animation:view-in var(--t-view) ease both}
[dir=rtl] .view.enter{animation-name:view-in-rtl}
[dir=rtl] svg.mirror{transform:scaleX(-1)}
bdi[dir=ltr]{unicode-bidi:isolate}
.scroll{overflow-y:auto;max-height:min(520px,calc(100vh - 120px));margin:0 -14px;padding:0 14px}
button{font:inherit;color:inherit}
.icon-btn{appearance:none;border:0;margin:0;padding:0;background:none;font:inherit;text-align:inherit;line-height:inherit;letter-spacing:inherit;word-spacing:inherit;text-transform:inherit;text-indent:inherit;text-shadow:inherit;text-rendering:inherit;box-sizing:border-box;width:36px;height:36px;display:inline-flex;align-items:center;justify-content:center;border-radius:50%;color:var(--c-fg2);cursor:pointer}
.icon-btn:hover{background:var(--c-surface);color:var(--c-fg)}
:focus-visible{outline:2px solid var(--sigil-accent) !important;outline-offset:2px}
.list{display:flex;flex-direction:column;gap:6px;margin:0;padding:0;list-style:none}
.row{appearance:none;border:0;margin:0;outline-offset:0;font:inherit;text-align:inherit;line-height:inherit;letter-spacing:inherit;word-spacing:inherit;text-transform:inherit;text-indent:inherit;text-shadow:inherit;text-rendering:inherit;box-sizing:border-box;display:flex;align-items:center;gap:12px;width:100%;min-height:56px;padding-block:8px;padding-inline:8px 12px;border-radius:var(--r-m);background:var(--c-surface);cursor:pointer;color:var(--c-fg)}
.row:hover:not([aria-disabled=true]){background:var(--c-surface2)}
.row[aria-disabled=true]{opacity:.5;cursor:not-allowed}
.row .name{flex:1;font-weight:500;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.row .meta{flex:1;min-width:0;display:flex;flex-direction:column}
.row .families{font-size:12px;color:var(--c-fg2);overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.tag{flex:none;white-space:nowrap;font-size:11px;font-weight:600;padding:3px 7px;border-radius:999px;background:var(--c-bg);color:var(--c-fg2);text-transform:uppercase;letter-spacing:.02em}
.tag.accent{color:var(--sigil-accent)}
/* The accent is a mid blue: on the dark card it is lightened to keep small text at 4.5:1 (WCAG AA). */
.root[data-theme=dark] .tag.accent{color:color-mix(in srgb,var(--sigil-accent) 65%,#fff)}
.tag.ok{color:var(--c-success)}
.img{position:relative;flex:none;width:40px;height:40px;border-radius:var(--r-s);overflow:hidden;background:var(--c-surface2)}
.img img{width:100%;height:100%;object-fit:cover;display:block;transition:opacity .15s}
.img[data-state=loading] img{opacity:0}
.img[data-state=loading]::after{content:"";position:absolute;inset:0;background:linear-gradient(90deg,transparent,var(--c-border),transparent);animation:shimmer 1.2s infinite}
.img .fallback{position:absolute;inset:0;display:flex;align-items:center;justify-content:center;font-weight:700;color:var(--c-fg2)}
.img.round{border-radius:50%}
.img.lg{width:72px;height:72px;border-radius:var(--r-l)}
.img.sm{width:24px;height:24px;border-radius:50%}
.section-label{font-size:12px;color:var(--c-fg2);margin:10px 4px 4px}
.grid{display:grid;grid-template-columns:repeat(4,minmax(0,1fr));gap:8px;margin:0;padding:0;list-style:none}
.tile{all:unset;box-sizing:border-box;display:flex;flex-direction:column;align-items:center;gap:6px;width:100%;padding:10px 2px 8px;border-radius:var(--r-m);background:var(--c-surface);cursor:pointer;min-height:94px}
.tile:hover{background:var(--c-surface2)}
.tile .img{width:52px;height:52px;border-radius:var(--r-m)}
.tile .label{font-size:11px;max-width:100%;padding:0 4px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap;color:var(--c-fg)}
.tile.skeleton{cursor:default}
.tile.skeleton .label{width:48px;height:10px;border-radius:4px;background:var(--c-surface2)}
.search{display:flex;align-items:center;gap:8px;height:40px;padding:0 12px;margin-bottom:10px;border-radius:var(--r-m);background:var(--c-surface);border:1px solid var(--c-border);color:var(--c-fg2)}
.search:focus-within{border-color:var(--sigil-accent);box-shadow:0 0 0 1px var(--sigil-accent)}
.search input:focus-visible{outline:none !important}
.search input{all:unset;flex:1;min-width:0;color:var(--c-fg);font-size:15px}
.search input::placeholder{color:var(--c-fg3)}
.state{display:flex;flex-direction:column;align-items:center;justify-content:center;gap:10px;min-height:180px;text-align:center;color:var(--c-fg2)}
.btn{all:unset;box-sizing:border-box;display:inline-flex;align-items:center;justify-content:center;gap:8px;height:40px;padding:0 16px;white-space:nowrap;border-radius:999px;background:var(--sigil-accent);color:var(--sigil-accent-fg);font-weight:600;cursor:pointer}
.btn.secondary{background:var(--c-surface);color:var(--c-fg);border:1px solid var(--c-border)}
.btn.block{width:100%}
.btn[disabled]{opacity:.5;cursor:not-allowed}
.btn:hover:not([disabled]){filter:brightness(1.06)}
.connecting{display:flex;flex-direction:column;align-items:center;gap:12px;padding:12px 4px 8px;text-align:center}
.connecting .wrap{position:relative;width:88px;height:88px;display:flex;align-items:center;justify-content:center}
.connecting .ring{position:absolute;inset:0;border-radius:calc(var(--r-l) + 6px);border:3px solid transparent;border-top-color:var(--sigil-accent);border-right-color:var(--sigil-accent);animation:spin 1s linear infinite}
.connecting .ring.err{animation:none;border-color:var(--c-error)}
.connecting .ring.ok{animation:none;border-color:var(--c-success)}
.siwx-icons{display:flex;align-items:center}.siwx-icons .img + .img{margin-inline-start:-12px;box-shadow:0 0 0 4px var(--c-bg, transparent)}
.siwx-actions{display:flex;flex-wrap:wrap;gap:8px;width:100%;margin-top:4px}.siwx-actions .btn{flex:1 1 0;min-width:max-content}
.wc-qr{position:relative;width:100%;max-width:280px;aspect-ratio:1;display:flex;align-items:center;justify-content:center;border-radius:var(--r-l);background:#fff;padding:8px;box-sizing:border-box;border:1px solid var(--c-border)}
.wc-qr .wc-logo{position:absolute;left:50%;top:50%;transform:translate(-50%,-50%);display:flex;background:#fff;border-radius:12px;padding:4px}
.wc-uri{all:unset;box-sizing:border-box;width:100%;max-width:280px;height:32px;padding:0 10px;border-radius:var(--r-s);background:var(--c-surface);border:1px solid var(--c-border);color:var(--c-fg2);font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px;text-overflow:ellipsis;white-space:nowrap;overflow:hidden}
.wc-relay{display:flex;align-items:center;gap:8px;justify-content:center;flex-wrap:wrap}
.headline{font-size:16px;font-weight:600;margin:0}
.sub{font-size:14px;color:var(--c-fg2);margin:0}
.sub.err{color:var(--c-error);overflow-wrap:anywhere}
.account{display:flex;flex-direction:column;align-items:center;gap:6px;padding-bottom:6px}
.avatar{width:64px;height:64px;border-radius:50%;box-shadow:0 0 0 4px var(--c-surface)}
.addr{display:flex;align-items:center;gap:4px;font-size:18px;font-weight:600}
.balance{font-size:14px;color:var(--c-fg2)}
.pill{all:unset;box-sizing:border-box;display:inline-flex;align-items:center;gap:8px;height:36px;padding-block:0;padding-inline:6px 12px;border-radius:999px;background:var(--c-surface);cursor:pointer;font-size:14px;font-weight:500}
.pill:hover{background:var(--c-surface2)}
.tabs{display:flex;gap:4px;padding:4px;margin:12px 0 8px;border-radius:999px;background:var(--c-surface)}
.tab{all:unset;box-sizing:border-box;flex:1;text-align:center;height:32px;line-height:32px;border-radius:999px;font-size:14px;color:var(--c-fg2);cursor:pointer}
.tab[aria-selected=true]{background:var(--c-bg);color:var(--c-fg);font-weight:600}
.panel{min-height:72px;display:flex;align-items:center;justify-content:center;color:var(--c-fg2);font-size:14px}
.panel.tokens{flex-direction:column;align-items:stretch;justify-content:flex-start;gap:6px}
.refresh[aria-busy=true] svg{animation:spin 1s linear infinite}
.tokens-head{display:flex;align-items:center;justify-content:space-between;gap:8px;min-height:36px;padding-inline-start:4px}
.token{display:flex;align-items:center;gap:12px;min-height:52px;padding-block:8px;padding-inline:10px 12px;border-radius:var(--r-m);background:var(--c-surface);color:var(--c-fg)}
.token .img.sm{width:32px;height:32px}
.token .meta,.token .amount{display:flex;flex-direction:column;min-width:0}
.token .meta{flex:1}
.token .amount{align-items:flex-end;text-align:end;font-variant-numeric:tabular-nums}
.token .name{font-weight:500;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.token .symbol,.token .value{font-size:12px;color:var(--c-fg2)}
.fiat{font-size:14px;font-weight:600;color:var(--c-fg)}
.net-check{color:var(--sigil-accent)}
.email{display:flex;gap:8px;flex-wrap:wrap}
.email .sub{flex-basis:100%;margin:0}
.otp{position:relative;display:flex;gap:8px;justify-content:center;width:100%}
.otp span{flex:0 1 40px;min-width:0;height:48px;display:flex;align-items:center;justify-content:center;font-size:20px;border-radius:var(--r-m);background:var(--c-surface);border:1px solid var(--c-border);color:var(--c-fg)}
.otp:focus-within span[data-active]{border-color:var(--sigil-accent);box-shadow:0 0 0 1px var(--sigil-accent)}
.otp input{position:absolute;inset:0;width:100%;height:100%;margin:0;padding:0;border:0;background:transparent;color:transparent;caret-color:transparent;font-size:16px;cursor:text}
.otp input:focus-visible{outline:none !important}.otp input::selection{background:transparent}
.otp input[disabled]{cursor:progress}
.email-verify{gap:12px}
.approve{display:flex;flex-direction:column;gap:8px}
.approve-slot{height:290px;display:flex;align-items:center;justify-content:center;border-radius:var(--r-m)}
.acct-type{font-size:11px;text-transform:uppercase;letter-spacing:.04em}
.acct-switch{display:inline-flex;gap:4px;margin:0;border:0;min-inline-size:0;padding:2px;border-radius:999px;background:var(--c-surface)}.acct-switch .pill{height:26px;padding:0 10px;font-size:12px}.acct-switch .pill[aria-pressed=true]{background:var(--sigil-accent);color:var(--sigil-accent-fg)}
.group-title{margin:10px 4px 6px;font-size:13px;font-weight:600;color:var(--c-fg2)}
.send{display:grid;gap:10px;margin:4px 0 4px}
.send>*{min-width:0}
.send-box{display:grid;gap:6px;padding:12px;border-radius:var(--r-m);background:var(--c-surface);border:1px solid var(--c-border)}
.send-box:focus-within{border-color:var(--sigil-accent)}
.send-line{display:flex;align-items:center;justify-content:space-between;gap:8px;min-width:0}
.send-label{font-size:13px;color:var(--c-fg2)}
.send-balance,.send-fiat{font-size:12px;color:var(--c-fg2);font-variant-numeric:tabular-nums}
.send input.send-amount{all:unset;flex:1;min-width:0;font-size:28px;font-weight:600;color:var(--c-fg);font-variant-numeric:tabular-nums}
.send input.send-to{all:unset;min-width:0;font-size:15px;color:var(--c-fg);overflow-wrap:anywhere}
.send input::placeholder{color:var(--c-fg3)}
.send input:focus-visible{outline:none !important}
.send-token{background:var(--c-bg);border:1px solid var(--c-border);flex:none}
.send-token .img.sm{width:24px;height:24px}
.send-max{all:unset;cursor:pointer;font-size:13px;font-weight:600;color:var(--c-fg);text-decoration:underline;text-underline-offset:2px;padding:2px 6px;border-radius:6px}
.send-max:focus-visible{outline:2px solid var(--sigil-accent)}
.send-max[disabled]{opacity:.6;cursor:progress}
.send-resolved{margin:0;min-height:16px;font-size:12px;overflow-wrap:anywhere;text-align:start}
.send-actions{display:flex;gap:8px;justify-content:flex-end;margin-top:6px}
.send-actions .btn{flex:1}
.send-preview{display:flex;flex-direction:column;gap:10px;margin:4px 0}
.send-summary{display:flex;flex-direction:column;align-items:center;gap:4px;padding:8px 0}
.send-total{display:inline-flex;align-items:center;gap:8px;font-size:24px;font-weight:600;font-variant-numeric:tabular-nums;overflow-wrap:anywhere}
.send-facts{display:grid;gap:2px;margin:0;padding:4px 12px;border-radius:var(--r-m);background:var(--c-surface)}
.send-facts>div{display:flex;justify-content:space-between;align-items:center;gap:12px;min-height:36px;font-size:14px}
.send-facts>div+div{border-top:1px solid var(--c-border)}
.send-facts dt{color:var(--c-fg2);white-space:nowrap}
.send-facts dd{margin:0;display:inline-flex;align-items:center;gap:6px;text-align:end;min-width:0;font-variant-numeric:tabular-nums}
.send-facts .img.sm{width:20px;height:20px}
.send-name{font-weight:600}
.token-pick .amount{display:flex;flex-direction:column;align-items:flex-end;font-variant-numeric:tabular-nums}
.send-sent{display:flex;flex-direction:column;align-items:center;gap:6px;margin:4px 0 4px;text-align:center}
.send-sent .btn{margin-top:10px}
.send-sent a{color:var(--c-fg);text-decoration:underline;text-underline-offset:2px;display:inline-flex;align-items:center;gap:4px}
.send-failed{display:flex;color:var(--c-error)}
.send-ok{display:flex;align-items:center;justify-content:center;width:40px;height:40px;border-radius:50%;background:var(--c-surface);color:var(--c-success)}
.swap-switch{justify-self:center;margin:-8px 0;border:1px solid var(--c-border);background:var(--c-bg)}
.swap-switch svg{transform:rotate(90deg)}
.swap-out{flex:1;min-width:0;font-size:28px;font-weight:600;color:var(--c-fg);font-variant-numeric:tabular-nums;overflow-wrap:anywhere}
.swap-slippage{display:inline-flex;align-items:center;gap:4px;font-size:15px}
.swap-slippage input{all:unset;width:56px;text-align:end;font-size:15px;color:var(--c-fg);font-variant-numeric:tabular-nums;border-bottom:1px solid var(--c-border)}
.swap-slippage input[aria-invalid]{border-color:var(--c-error)}
.swap-note{margin:0;font-size:12px;text-align:start}
.swap-unlimited{display:flex;gap:8px;align-items:flex-start;font-size:13px;color:var(--c-fg2);text-align:start}
.onramp-select{padding:0 10px;font-weight:600;appearance:auto}
.onramp-providers{display:grid;gap:6px;margin:0;padding:0;border:0;min-width:0}
.onramp-providers legend{padding:0 0 6px}
.onramp-provider{display:flex;align-items:center;gap:10px;padding:10px 12px;border-radius:var(--r-m);background:var(--c-surface);border:1px solid var(--c-border);cursor:pointer;text-align:start}
.onramp-provider:has(input:checked){border-color:var(--sigil-accent)}
.onramp-provider input{accent-color:var(--sigil-accent);margin:0}
.onramp-provider-name{display:flex;flex-direction:column;flex:1;font-weight:600;font-size:14px}
.onramp-provider-quote{display:flex;flex-direction:column;align-items:flex-end;font-size:14px;font-variant-numeric:tabular-nums;text-align:end}
.onramp-provider .sub{margin:0;font-size:12px;font-weight:400}
.onramp-wait svg{animation:spin 1s linear infinite}
.send-sent a.btn{text-decoration:none;justify-content:center}
.names-status{min-height:18px}
.names-free{color:var(--c-success)}
.names-suggestions{display:grid;gap:6px}
.names-chips{display:flex;flex-wrap:wrap;gap:6px}
.names-chip{padding:0 12px;font-size:13px}
.email input{all:unset;flex:1;min-width:0;height:40px;padding:0 12px;border-radius:var(--r-m);background:var(--c-surface);border:1px solid var(--c-border);color:var(--c-fg)}
.social-login{display:flex;flex-direction:column;gap:8px}
.social-glyph{display:inline-flex;flex:none;width:20px;height:20px;color:var(--c-fg)}
.social-glyph svg{display:block;width:100%;height:100%}
.social-list .social-glyph{width:28px;height:28px;margin:2px}
.state>.social-glyph{width:44px;height:44px}
.qr{background:#fff;padding:12px;border-radius:var(--r-m);line-height:0}
.qr svg{display:block;width:200px;height:200px}
.socials{display:flex;gap:6px}
.socials .icon-btn{flex:1;border-radius:var(--r-m);background:var(--c-surface);width:auto}
.newcomer{display:flex;flex-wrap:wrap;justify-content:center;align-items:center;gap:4px 6px;margin:12px 0 0;font-size:14px;color:var(--c-fg2)}
.link{appearance:none;border:0;background:none;padding:0;font:inherit;font-weight:600;color:var(--c-fg);text-decoration:underline;text-underline-offset:2px;cursor:pointer;white-space:nowrap}
.link:hover{color:var(--sigil-accent)}
a.row{text-decoration:none}a.row .tag{display:inline-flex;align-items:center;gap:4px}
.divider{display:flex;align-items:center;gap:10px;margin:12px 0;color:var(--c-fg2);font-size:12px}
.gate{all:unset;display:block;min-width:0}.gate[disabled]{opacity:.5}.gate[disabled] .row{cursor:not-allowed}
.gate>.btn{width:100%}
.legal{display:flex;align-items:flex-start;gap:10px;margin:0 0 12px;padding:10px 12px;border-radius:var(--r-m);background:var(--c-surface);font-size:13px;line-height:18px;color:var(--c-fg2);cursor:pointer}
.legal input{margin:2px 0 0;accent-color:var(--sigil-accent);flex:none}.legal a{color:var(--c-fg);font-weight:600;text-underline-offset:2px}
.divider::before,.divider::after{content:"";flex:1;height:1px;background:var(--c-border)}
.toast{align-self:center;display:flex;max-width:calc(100% - 28px);margin:0 14px 8px;padding:6px 14px;border-radius:999px;background:var(--c-surface2);color:var(--c-fg);font-size:13px;line-height:18px;animation:fade var(--t-view) ease both}
.toast[data-closing]{animation:fade-out var(--t-view) ease both}
.toast-text{min-width:0;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.toast[data-variant=error]{color:var(--c-error)}
.toast[data-variant=success]{color:var(--c-success)}
.sr{position:absolute;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}
.sentinel{height:1px}
.more{display:flex;justify-content:center;padding:10px 0}
.panel.activity-panel{flex-direction:column;align-items:stretch;justify-content:flex-start}
.activity{display:flex;flex-direction:column;gap:4px;width:100%}
.activity-scroll{max-height:min(340px,42vh);overflow-y:auto;margin:0 -6px;padding:0 6px}
.activity .group-title{margin:8px 4px 6px}
.activity-link{display:flex;align-items:center;gap:12px;min-height:56px;padding-block:8px;padding-inline:10px 12px;border-radius:var(--r-m);background:var(--c-surface);color:var(--c-fg);text-decoration:none}
a.activity-link:hover{background:var(--c-surface2)}
.activity-icon{position:relative;flex:none;display:flex}
.activity-icon .img.sm{width:32px;height:32px}
.activity-glyph{display:flex;align-items:center;justify-content:center;width:32px;height:32px;border-radius:50%;background:var(--c-surface2);color:var(--c-fg2)}
.activity-dot{position:absolute;inset-inline-end:-2px;bottom:-2px;width:12px;height:12px;border-radius:50%;border:2px solid var(--c-surface)}
.activity-dot.pending{background:var(--sigil-accent)}
.activity-dot.failed{background:var(--c-error)}
.activity-link .meta{flex:1;min-width:0;display:flex;flex-direction:column;gap:2px}
.activity-link .name{display:flex;align-items:center;gap:6px;font-weight:500}
.activity-link .party{font-size:12px;color:var(--c-fg2);overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.activity-link .amount{display:flex;flex-direction:column;align-items:flex-end;text-align:end;font-variant-numeric:tabular-nums;font-weight:500;white-space:nowrap}
.activity-link .amount .in{color:var(--c-success)}
.activity-link .when{font-size:12px;font-weight:400;color:var(--c-fg2)}
.activity-row.spam .activity-link{background:var(--c-bg);border:1px dashed var(--c-error)}
.activity-row.spam .party{white-space:normal}
.tag.bad{color:var(--c-error)}
.activity-foot{display:flex;justify-content:center;padding:4px 0 0}
.activity-toggle:hover{color:var(--c-fg);text-decoration-thickness:2px}
.activity-empty{display:flex;flex-direction:column;align-items:center;gap:6px;padding:12px 0;text-align:center}
.activity-row.skeleton .bar{display:block;height:10px;width:60%;border-radius:4px;background:var(--c-surface2)}
.activity-row.skeleton .bar.short{width:35%}
.account-actions{display:flex;gap:8px;justify-content:center;flex-wrap:wrap}
.account-actions .btn{flex:1 1 0;min-width:max-content;padding-inline:8px}
.account .account-actions{align-self:stretch}
.receive{display:flex;flex-direction:column;align-items:center;gap:10px;text-align:center;padding-bottom:4px}
.receive .qr svg{width:208px;height:208px}
.receive-net{display:inline-flex;align-items:center;gap:8px;height:32px;padding-block:0;padding-inline:6px 12px;border-radius:999px;background:var(--c-surface);font-size:14px;font-weight:500}
.receive-addr{margin:0;max-width:100%;font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:12px;overflow-wrap:anywhere;text-wrap:balance;color:var(--c-fg)}
.receive-note{display:flex;gap:8px;align-items:flex-start;margin:0;padding:10px 12px;border-radius:var(--r-m);background:var(--c-surface);font-size:13px;color:var(--c-fg2);text-align:start}
.receive-note svg{flex:none;margin-top:1px}
.receive-compat{display:flex;flex-direction:column;gap:6px;width:100%}
.receive-nets{display:flex;flex-wrap:wrap;gap:6px;justify-content:center;margin:0;padding:0;list-style:none}
.receive-nets li{display:inline-flex;align-items:center;gap:6px;height:30px;padding-block:0;padding-inline:4px 10px;border-radius:999px;background:var(--c-surface);font-size:13px;color:var(--c-fg)}
@keyframes fade{from{opacity:0}to{opacity:1}}
@keyframes fade-out{from{opacity:1}to{opacity:0}}
@keyframes view-in{from{opacity:0;transform:translateX(6px)}to{opacity:1;transform:none}}
@keyframes view-in-rtl{from{opacity:0;transform:translateX(-6px)}to{opacity:1;transform:none}}
@keyframes spin{to{transform:rotate(360deg)}}
@keyframes shimmer{from{transform:translateX(-100%)}to{transform:translateX(100%)}}
@keyframes shake{10%,90%{transform:translateX(-1px)}20%,80%{transform:translateX(2px)}30%,50%,70%{transform:translateX(-4px)}40%,60%{transform:translateX(4px)}}
@media (max-width:430px){.overlay{align-items:flex-end;padding:0}.card{width:100%;border-bottom-left-radius:0;border-bottom-right-radius:0}}
/* Reduced motion: no view slide, title fade, height transition, shake or spinning; each shows its end state at once. */
@media (prefers-reduced-motion:reduce){*,*::before,*::after{animation-duration:0s !important;animation-delay:0s !important;animation-iteration-count:1 !important;transition-duration:0s !important;transition-delay:0s !important}}
`
