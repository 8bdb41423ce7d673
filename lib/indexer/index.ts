/** chain → mirror (DESIGN "Indexer"): one code path for the cron run and the fast sync. */
export { runIndexer, type DeferredTransaction, type IndexerSummary, type RecordedSkip, type RunIndexerInput } from './run-indexer';
export { syncRegistration, type SyncResult } from './sync-signature';
export { runCronJob, type CronSummary } from './cron-job';
export { extractRegistrations, type Registration } from './extract-registrations';
export { applyRegistrations } from './apply-registration';
export { readCursor } from './cursor';
