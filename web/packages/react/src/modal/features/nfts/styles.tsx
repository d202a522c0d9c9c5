/*
 * The NFT views' own rules, loaded with their chunk rather than with the modal's stylesheet: a
 * <style> in the views' tree, inside the modal's shadow root (the shared rules, .send-box,
 * .send-facts, .btn, come from the modal's sheet).
 */
const NFT_CSS = /* css */ `
.panel.nfts-panel{flex-direction:column;align-items:stretch;justify-content:flex-start}
.nfts{display:flex;flex-direction:column;gap:4px;width:100%}
.nft-scroll{max-height:min(340px,42vh);overflow-y:auto;margin:0 -6px;padding:2px 6px}
.nft-grid{display:grid;grid-template-columns:repeat(auto-fill,minmax(96px,1fr));gap:8px;margin:0;padding:0;list-style:none}
.nft-grid>li{display:flex;min-width:0}
.nft-card{appearance:none;border:0;margin:0;font:inherit;color:var(--c-fg);text-align:left;box-sizing:border-box;display:flex;flex-direction:column;justify-content:flex-start;gap:6px;width:100%;min-width:0;padding:6px;border-radius:var(--r-m);background:var(--c-surface);cursor:pointer}
.nft-card:hover{background:var(--c-surface2)}
.nft-card .nft-art{border-radius:var(--r-s)}
.nft-thumb{position:relative;display:block}
/* Two lines at most: 'Sigil Badge' then '#12' rather than 'Sigil Badge…'. */
.nft-name{display:-webkit-box;-webkit-box-orient:vertical;-webkit-line-clamp:2;overflow:hidden;overflow-wrap:anywhere;padding:0 2px 2px;font-size:13px;font-weight:500;line-height:1.3}
.nft-count{position:absolute;inset-inline-end:4px;bottom:4px;padding:1px 7px;border-radius:999px;background:var(--c-bg);color:var(--c-fg);font-size:12px;font-weight:600;font-variant-numeric:tabular-nums}
.nft-art{position:relative;display:block;width:100%;aspect-ratio:1/1;overflow:hidden;background:var(--c-surface2)}
.nft-art img{position:absolute;inset:0;width:100%;height:100%;object-fit:cover;display:block;transition:opacity .15s}
.nft-art[data-state=loading] img{opacity:0}
.nft-art[data-state=loading]::after{content:"";position:absolute;inset:0;background:linear-gradient(90deg,transparent,var(--c-border),transparent);animation:shimmer 1.2s infinite}
.nft-none{position:absolute;inset:0;display:flex;align-items:center;justify-content:center;color:var(--c-fg3)}
.nft-none svg{width:36%;height:36%}
.nft-card.skeleton{cursor:default}
.nft-card.skeleton .bar{display:block;height:10px;width:70%;margin:2px 2px 4px;border-radius:4px;background:var(--c-surface2)}
.nfts-note{display:flex;flex-direction:column;align-items:center;gap:8px;padding:18px 0;text-align:center}
.nfts-note .hint{font-size:13px}
.nft-item{display:flex;flex-direction:column;gap:12px}
.nft-item .nft-art{width:min(100%,240px);align-self:center;border-radius:var(--r-l)}
.nft-title{display:flex;flex-direction:column;align-items:center;gap:2px;text-align:center}
.nft-title .headline{overflow-wrap:anywhere}
.nft-desc{margin:0;font-size:14px;color:var(--c-fg2);white-space:pre-line;overflow-wrap:anywhere;max-height:7.5em;overflow-y:auto}
.nft-item .send-facts dd{overflow-wrap:anywhere}
.nft-link{color:var(--c-fg);text-decoration:underline;text-underline-offset:2px;display:inline-flex;align-items:center;gap:4px}
.nft-send-head{display:flex;align-items:center;gap:12px;min-width:0}
.nft-send-head .nft-art{width:56px;flex:none;border-radius:var(--r-s)}
.nft-send-head .meta{display:flex;flex-direction:column;min-width:0}
.nft-send-head .name{font-weight:600;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.nft-send-head .sub{font-size:13px}
.send input.nft-amount{all:unset;flex:1;min-width:0;font-size:22px;font-weight:600;color:var(--c-fg);font-variant-numeric:tabular-nums}
`

/** The NFT views' stylesheet, rendered with each of them. */
export function NftStyles() {
  return <style>{NFT_CSS}</style>
}
