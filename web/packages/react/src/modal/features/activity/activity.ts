// The activity feature's chunk: the Account view's Activity tab, loaded the first time the tab shows.
export { ActivityList } from './ActivityList.js'
