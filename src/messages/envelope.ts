/** The Harmony message envelope (spec §1): `<|start|>{header}<|message|>{content}{end}`. */

/** A message of a Harmony conversation. */
export interface HarmonyMessage {
  /** `system`, `developer`, `user`, `assistant`, or `tool`. */
  readonly role: 'system' | 'developer' | 'user' | 'assistant' | 'tool';
  /** The author's name (`role:name`); for a tool message, the tool (`functions.get_weather`), which is the whole header. */
  readonly name?: string;
  /** `to=` recipient (`functions.get_weather`, `assistant`); `all` is not written. */
  readonly recipient?: string;
  /** `analysis`, `commentary`, `final`. */
  readonly channel?: string;
  /** ` json`, ` <|constrain|>json` … written after one space. */
  readonly contentType?: string;
  readonly content: string;
}

/** The header of a message: role (or tool name), recipient, channel, content type. */
export function messageHeader(m: HarmonyMessage): string {
  let h = m.role === 'tool' ? (m.name ?? 'tool') : m.name ? `${m.role}:${m.name}` : m.role;
  if (m.recipient && m.recipient !== 'all') h += ` to=${m.recipient}`;
  if (m.channel) h += `<|channel|>${m.channel}`;
  if (m.contentType) h += ` ${m.contentType}`;
  return h;
}

/** The end token: `<|call|>` for an assistant message with a recipient, `<|return|>` when asked, else `<|end|>`. */
export function messageEnd(m: HarmonyMessage, isReturn = false): '<|end|>' | '<|call|>' | '<|return|>' {
  if (m.role === 'assistant' && m.recipient && m.recipient !== 'all') return '<|call|>';
  return isReturn ? '<|return|>' : '<|end|>';
}

/** One whole message. */
export function renderEnvelope(m: HarmonyMessage, isReturn = false): string {
  return `<|start|>${messageHeader(m)}<|message|>${m.content}${messageEnd(m, isReturn)}`;
}
