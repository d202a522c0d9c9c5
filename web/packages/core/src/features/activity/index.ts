/*
 * `@sigil/core/activity`: the activity feature (the account's history and the session's pending
 * sends). Loaded with the views that use it, never with the host page.
 */
export {
  ACTIVITY_POLL_FOR_MS,
  ACTIVITY_POLL_MS,
  activeActivityAccount,
  activeNetwork,
  activityRows,
  activityState,
  amountSign,
  counterparty,
  fetchActivity,
  groupByMonth,
  mergeTransactions,
  relativeTime,
  setShowSpam,
  unlistedPending,
  type ActivityRow,
  type Counterparty,
  type FetchActivityErrorType,
  type FetchActivityParameters,
  type FetchActivityReturnType,
  type MonthGroup,
  type RelativeUnit,
  type SetShowSpamParameters,
} from './activity.js'
export { createHistoryClient, type GetHistoryParams, type HistoryClient, type HistoryPage } from './api.js'
export {
  addPendingTransaction,
  PENDING_LIMIT,
  type ActivityState,
  type ActivityStatus,
  type AddPendingTransactionParameters,
  type OperationType,
  type PendingTransaction,
  type Transaction,
  type TransactionMetadata,
  type TransactionStatus,
  type TransactionTransfer,
  type TransferDirection,
} from './state.js'
