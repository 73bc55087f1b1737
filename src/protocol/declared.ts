import type * as v from "valibot";

/**
 * The declared fields of a loose object's output, without its
 * `[key: string]: unknown` (nested objects and arrays too): the type a
 * protocol schema stands for, so types are inferred from the schemas and
 * cannot drift from what is checked.
 */
export type Declared<T> = T extends readonly (infer Item)[]
  ? Declared<Item>[]
  : T extends object
    ? { [Key in keyof T as string extends Key ? never : Key]: Declared<T[Key]> }
    : T;

/** The type a protocol schema stands for (see {@link Declared}). */
export type Shape<Schema extends v.GenericSchema> = Declared<v.InferOutput<Schema>>;
