/** A tokenizer keeps the ids of its last long texts: a repeated count or spans of the same text is the same answer, not a re-encoding; other texts are counted on their own. */
import { describe, expect, it } from 'vitest';
import { tokenizerFromJson } from '../../src/tokenizers/index.js';
import { byteLevelToy } from './toy.js';

describe('repeated counts of the same long text', () => {
  it('give the same count and spans as a fresh tokenizer; a different text of the same length its own', () => {
    const t = tokenizerFromJson(JSON.stringify(byteLevelToy()));
    const fresh = () => tokenizerFromJson(JSON.stringify(byteLevelToy()));
    const a = 'hello world, '.repeat(1000);
    const b = 'world hello, '.repeat(1000);
    expect(a.length).toBe(b.length);
    const first = t.count(a);
    expect(first).toBe(fresh().count(a));
    expect(t.count(a)).toBe(first);
    expect(t.spans!(a)).toEqual(fresh().spans!(a));
    expect(t.count(b)).toBe(fresh().count(b));
    expect(t.encode(a)).toEqual(fresh().encode(a));
    // encode hands back a list of the caller's own: changing it changes no later count
    t.encode(a).push(1);
    expect(t.count(a)).toBe(first);
    // more texts than are kept: the oldest are encoded again, with the same result
    for (let i = 0; i < 20; i++) t.count(`${i} `.repeat(3000));
    expect(t.count(a)).toBe(first);
  });
});
