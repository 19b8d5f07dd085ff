export { MCPError } from "./errors.js";
export type { MCPToolsetJSON, MCPToolsetOptions } from "./mcp-toolset.js";
export { MCPToolset } from "./mcp-toolset.js";
export type {
  HttpServerInfo,
  MCPServerInfo,
  MCPServerInfoJSON,
  SecretOrString,
  StdioServerInfo,
  TransportServerInfo,
} from "./server-info.js";
export { resultToText } from "./tool-result.js";
