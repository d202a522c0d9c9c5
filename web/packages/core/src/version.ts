/** Sent as `sv` on every directory call; keep in step with package.json. */
export const SDK_VERSION = '0.1.0'
/** Sent as `st` on every directory call. */
export const SDK_TYPE = 'sigil'
