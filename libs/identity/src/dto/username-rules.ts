/**
 * GitLab's username format (`Gitlab::PathRegex.namespace_format_regex`): letters, digits,
 * `_`, `-` and `.`; not starting with `-`, not ending in `.`, `.git` or `.atom`. Stricter than
 * the regex, as the GitLab sign-up form is: no leading `.` (a hidden path) and no two special
 * characters in a row among `.` and `-` next to a dot (`..`, `.-`, `-.`), which would make
 * ambiguous or traversal-like paths.
 */
const USERNAME_FORMAT = /^[a-zA-Z0-9_](?:[a-zA-Z0-9_.-]*[a-zA-Z0-9_-])?$/;
const FORBIDDEN_SEQUENCES = /\.\.|\.-|-\./;
const FORBIDDEN_SUFFIX = /\.(git|atom)$/i;

export const USERNAME_FORMAT_MESSAGE =
  "can contain only letters, digits, '_', '-' and '.'. Cannot start with '-' or '.', contain '..', or end in '.', '.git' or '.atom'.";

export function isValidUsername(username: string): boolean {
  return USERNAME_FORMAT.test(username) && !FORBIDDEN_SEQUENCES.test(username) && !FORBIDDEN_SUFFIX.test(username);
}
