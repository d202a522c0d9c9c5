import type { ViewProps } from '../../registry.js'
import { useMessages, useModal } from '../../context.js'
import { Icons } from '../../ui.js'

/** The name is the account's (spec section 2 "RegisterAccountNameSuccess"): 'Done' goes back to the Account view, which shows it. */
export function RegisterAccountNameSuccessView({ route }: ViewProps<'RegisterAccountNameSuccess'>) {
  const { client } = useModal()
  const m = useMessages().ui.names
  return (
    <div className="send-sent" role="status" data-testid="register-name-success">
      <span className="send-ok">
        <Icons.check />
      </span>
      <p className="headline">{m.success(route.data.name)}</p>
      <p className="sub">{m.successNote}</p>
      <button type="button" className="btn secondary block" onClick={() => client.goBack()}>
        {m.done}
      </button>
    </div>
  )
}
