/* `@sigil/core/frame-messages`: the frame's message schemas, for the frame page (web/packages/frame). */
export * from './frame/messages.js'
