// Tools as TypeBox schemas: each exported object schema is one tool, named after its export.
import { Type } from '@sinclair/typebox';

/** Search the travel policy. */
export const search_policy = Type.Object(
  {
    query: Type.String({ description: 'What to look for' }),
    limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 20, default: 5 })),
  },
  { description: 'Search the company travel policy.' },
);
