// The server/web contract. Each feature keeps its schemas in shared/api/<feature>.ts; this file is the
// single import point so that both sides name one module.
export * from './api/common';
export * from './api/health';
export * from './api/sessions';
export * from './api/spans';
export * from './api/requests';
export * from './api/lineage';
export * from './api/sql';
export * from './api/triage';
export * from './api/search';
export * from './api/usage';
export * from './api/customizations';
export * from './api/export';
export * from './api/request-timeline';
