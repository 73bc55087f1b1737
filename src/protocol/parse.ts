import * as v from "valibot";
import { ValidationError } from "../errors.js";

/** A parse outcome that never throws. */
export type SafeParseResult<T> = { ok: true; value: T } | { ok: false; error: ValidationError };

/** Renders a valibot issue path as `root.target.frame[3]`. */
export function formatIssuePath(root: string, issue: v.BaseIssue<unknown>): string {
  let path = root;
  for (const item of issue.path ?? []) {
    const key = (item as { key?: unknown }).key;
    path += typeof key === "number" ? `[${key}]` : `.${String(key)}`;
  }
  return path;
}

function describeIssue(issue: v.BaseIssue<unknown>): string {
  // Missing keys and unknown keys come from the object schema itself; say so plainly.
  if (issue.kind === "schema" && issue.type === "strict_object" && issue.expected === "never") {
    return "unknown field";
  }
  if (issue.kind === "schema" && issue.received === "undefined" && issue.type !== "variant") {
    return issue.message.startsWith("Invalid") ? "required" : `required; ${issue.message}`;
  }
  return issue.message;
}

/**
 * Validates `input` against `schema` and returns the output or a
 * {@link ValidationError} naming the first offending field under `root`.
 */
export function safeParseWith<const Schema extends v.GenericSchema>(
  schema: Schema,
  input: unknown,
  root: string,
): SafeParseResult<v.InferOutput<Schema>> {
  const result = v.safeParse(schema, input, { abortPipeEarly: true });
  if (result.success) return { ok: true, value: result.output };
  const [first, ...rest] = result.issues;
  const more = rest.length > 0 ? ` (and ${rest.length} more problem${rest.length === 1 ? "" : "s"})` : "";
  return {
    ok: false,
    error: new ValidationError(formatIssuePath(root, first), `${describeIssue(first)}${more}`),
  };
}

/** Like {@link safeParseWith} but throws the {@link ValidationError}. */
export function parseWith<const Schema extends v.GenericSchema>(schema: Schema, input: unknown, root: string): v.InferOutput<Schema> {
  const result = safeParseWith(schema, input, root);
  if (!result.ok) throw result.error;
  return result.value;
}
