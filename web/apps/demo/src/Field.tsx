/** One labelled value of a demo card; tests find it by its test id. */
export function Field({ label, value, testId, wei }: { label: string; value: string; testId: string; wei?: string | undefined }) {
  return (
    <div className="field">
      <dt>{label}</dt>
      <dd data-testid={testId} data-wei={wei}>
        {value}
      </dd>
    </div>
  )
}
