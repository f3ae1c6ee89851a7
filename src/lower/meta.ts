/** Annotations: title, description, examples, default, deprecated. */
import { isJsonArray, jsonTypeOf, type JsonObject, type JsonValue } from '../ir/json.js';
import { EMPTY_META, type IrMeta } from '../ir/nodes.js';
import type { LowerContext } from './context.js';

/** Read a schema object's annotations, reporting ones of the wrong type. */
export function lowerMeta(schema: JsonObject, pointer: string, ctx: LowerContext): IrMeta {
  const title = schema.get('title');
  const description = schema.get('description');
  const examples = schema.get('examples');
  const dflt = schema.get('default');
  const deprecated = schema.get('deprecated');
  if (title === undefined && description === undefined && examples === undefined && dflt === undefined && deprecated === undefined && !schema.has('readOnly') && !schema.has('writeOnly')) {
    return EMPTY_META;
  }
  if (title !== undefined && typeof title !== 'string') {
    ctx.report('warning', 'schema/non-string-title', `${pointer}/title`, `title is a ${jsonTypeOf(title)}, not a string; it is ignored`);
  }
  if (description !== undefined && typeof description !== 'string') {
    ctx.report('warning', 'schema/non-string-description', `${pointer}/description`, `description is a ${jsonTypeOf(description)}, not a string; it is ignored`);
  }
  if (examples !== undefined && !isJsonArray(examples)) {
    ctx.report('warning', 'schema/examples-not-array', `${pointer}/examples`, `examples is a ${jsonTypeOf(examples)}, not an array; it is ignored`);
  }
  if (deprecated !== undefined && typeof deprecated !== 'boolean') {
    ctx.report('warning', 'schema/non-boolean-keyword', `${pointer}/deprecated`, `deprecated is a ${jsonTypeOf(deprecated)}, not a boolean; it is ignored`);
  }
  // one object shape for every meta (fields present even when undefined): keeps property access monomorphic
  return {
    title: typeof title === 'string' ? title : undefined,
    description: typeof description === 'string' ? description : undefined,
    examples: isJsonArray(examples) ? examples : EMPTY_META.examples,
    default: dflt !== undefined ? { value: dflt as JsonValue } : undefined,
    deprecated: deprecated === true,
    readOnly: schema.get('readOnly') === true,
    writeOnly: schema.get('writeOnly') === true,
  };
}
