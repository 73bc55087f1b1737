/**
 * Chromium network errors that end a navigation before any request reached a
 * server: nothing was sent, so nothing can have happened there. Both engines
 * read it for the outcome rule of a failed navigation.
 */
export const notSentNetErrors: ReadonlySet<string> = new Set([
  "ERR_NAME_NOT_RESOLVED",
  "ERR_NAME_RESOLUTION_FAILED",
  "ERR_CONNECTION_REFUSED",
  "ERR_ADDRESS_UNREACHABLE",
  "ERR_ADDRESS_INVALID",
  "ERR_INTERNET_DISCONNECTED",
  "ERR_NETWORK_ACCESS_DENIED",
  "ERR_PROXY_CONNECTION_FAILED",
  "ERR_TUNNEL_CONNECTION_FAILED",
  "ERR_UNSAFE_PORT",
  "ERR_INVALID_URL",
  "ERR_DISALLOWED_URL_SCHEME",
  "ERR_UNKNOWN_URL_SCHEME",
  "ERR_BLOCKED_BY_CLIENT",
  "ERR_BLOCKED_BY_ADMINISTRATOR",
  "ERR_CERT_COMMON_NAME_INVALID",
  "ERR_CERT_DATE_INVALID",
  "ERR_CERT_AUTHORITY_INVALID",
  "ERR_CERT_INVALID",
  "ERR_SSL_PROTOCOL_ERROR",
  "ERR_SSL_VERSION_OR_CIPHER_MISMATCH",
]);
