export { readProviderFailure, redactSecrets, toProviderError, type FailureKind, type ProviderCallContext, type ProviderErrorClasses, type ProviderFailure } from "./errors.js";
export { abortableSleep, retryAfterMs, retryAfterWait, type RateLimitOptions, type Sleep } from "./rate-limit.js";
export { createMemoryProfileStore, type ProfileStore } from "./profile-store.js";
export { keyPlaceholder, providerFetch, type ProviderFetchOptions } from "./fetch.js";
