/** The VS Code setting that makes Copilot Chat write its debug logs (README, "Turning on Copilot's debug logs"). */
export const DEBUG_LOG_SETTING = '"github.copilot.chat.agentDebugLog.fileLogging.enabled": true';
