/** chain → mirror (DESIGN "Indexer"): one code path for the cron run, the fast sync and reconcile. */
export { runIndexer, type DeferredTransaction, type IndexerSummary, type RecordedSkip, type RunIndexerInput } from './run-indexer';
export { syncTransaction, type SyncResult } from './sync-signature';
export { runCronJob, type CronSummary } from './cron-job';
export { decodeTransaction, extractRegistrations, type Registration } from './extract-registrations';
export { mirrorTouchedRecords, afterMirrorCommit } from './mirror-touched';
export { readRecordStates } from './record-states';
export { readCursor } from './cursor';
