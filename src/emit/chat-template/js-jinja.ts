/**
 * Where @huggingface/jinja (transformers.js, LM Studio-like JavaScript servers) renders the
 * same template differently from Jinja2 (spec chat-template §4). We follow Jinja2; these
 * functions only note the documented differences where a tool meets one.
 */
import { escapePointerToken, isJsonArray, isJsonObject, JsonNumber, type JsonValue } from '../../ir/json.js';
import { noteJs, type ChatTemplateContext } from './context.js';
import { pyStr } from '../python/values.js';

/** A property named `items`: `properties.items()` finds the property, not the method, and the JS engine fails. */
export function noteItemsProperty(ctx: ChatTemplateContext, objectPointer: string, names: readonly string[]): void {
  if (!names.includes('items')) return;
  noteJs(ctx, `${objectPointer}/properties/items`, '@huggingface/jinja fails on this tool: a property named "items" hides the `.items()` the template calls on `properties` ("Cannot call something that is not a function"); Jinja2 renders it');
}

/** JavaScript has one number type: `1.0` prints `1`, `1e16` prints `10000000000000000`, big integers round. */
export function noteNumbers(ctx: ChatTemplateContext, pointer: string, value: JsonValue): void {
  const visit = (v: JsonValue, p: string): void => {
    if (v instanceof JsonNumber) {
      const py = pyStr(v);
      const js = String(v.value);
      if (py !== js) noteJs(ctx, p, `@huggingface/jinja prints this number as ${js} where Jinja2 prints ${py} (JavaScript numbers do not keep the float/int distinction or large integers)`);
    } else if (isJsonArray(v)) v.forEach((x, k) => visit(x, `${p}/${k}`));
    else if (isJsonObject(v)) for (const [k, x] of v) visit(x, `${p}/${escapePointerToken(k)}`);
  };
  visit(value, pointer);
}

/** `|join` over a list with null: Jinja2 prints `None`, the JS engine an empty string. */
export function noteJoinNulls(ctx: ChatTemplateContext, pointer: string, values: readonly JsonValue[]): void {
  values.forEach((v, k) => {
    if (v === null) noteJs(ctx, `${pointer}/${k}`, '@huggingface/jinja joins null as an empty string where Jinja2 prints None');
  });
}

/** The note for `str + number`. */
export const NUMBER_CONCAT_NOTE = '@huggingface/jinja adds this number to the text where Jinja2 raises TypeError, so JavaScript servers render what Python ones refuse';

/** `str + number`: Jinja2 raises TypeError, the JS engine concatenates. */
export function noteNumberConcat(ctx: ChatTemplateContext, pointer: string, value: JsonValue): void {
  if (value instanceof JsonNumber) noteJs(ctx, pointer, NUMBER_CONCAT_NOTE);
}
