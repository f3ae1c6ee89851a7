/**
 * An official chat template as the package ships it: the exact text of the template a model family
 * publishes, and where that text was taken from, so that anyone can fetch the same bytes and check
 * them (`git hash-object` of the text equals `source.blob`, or of the text with `source.restored` undone). The modules under `./templates/` are
 * written by `scripts/import-template.mjs`; do not edit their text by hand.
 */

/** Where an official template's text comes from. */
export interface TemplateSource {
  /** The public GitHub repository (`owner/name`) whose commit holds the text. */
  readonly repo: string;
  /** The file inside `repo` that holds the text, at `commit`. */
  readonly path: string;
  /** The full 40-hex commit of `repo` the text was read at. */
  readonly commit: string;
  /** The git blob id of `text`: sha1("blob " + UTF-8 byte length + "\0" + UTF-8 bytes); it is the file's own blob id when the text is the whole file. */
  readonly blob: string;
  /** The model's licence as its Hugging Face model card states it, or `not verified`. */
  readonly licence: string;
  /** The Hugging Face model (`owner/name`) whose chat template this is. */
  readonly model: string;
  /** Anything a reader must know about the source: a copy's history, text taken out of a larger file, a lower confidence. */
  readonly note?: string;
  /**
   * Set when the source file is a copy that changed one span of the official text and the official
   * span is known from public quotes (`note` says where): `text` is the source file's bytes with the
   * one occurrence of `from` replaced by `to`, and `blob` is the source file's blob id (undo the
   * replacement to check it).
   */
  readonly restored?: { readonly from: string; readonly to: string };
}

/** An official chat template: its exact text and its provenance. */
export interface OfficialTemplate {
  /** The template, byte for byte (CRLF kept where the source file has it). */
  readonly text: string;
  /** Where the text comes from, with the git blob id that checks it. */
  readonly source: TemplateSource;
}
