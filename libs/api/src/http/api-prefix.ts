/** The only API version: every REST path starts with it (spec document 1, "Versioning"). */
export const API_VERSION = 4;
export const API_PREFIX = `/api/v${API_VERSION}`;
