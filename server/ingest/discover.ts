// Discovery: where Copilot Chat debug logs live (FORMAT §1–2) and which workspace and repository each
// folder of logs belongs to. The indexer imports only this module; the parts live in ./discover/.
export { type DiscoverEnv, defaultCopilotHome, defaultEnv, defaultUserDataDirs } from './discover/user-data-dirs';
export { type LogRoot, type WorkspaceLogs, resolveRoot, watchTargets } from './discover/roots';
export { workspaceOfDebugLogs } from './discover/layout';
export { type WorkspaceInfo, readWorkspaceInfo } from './discover/workspace-info';
export { repositoryFromRemote } from './discover/remote-url';
