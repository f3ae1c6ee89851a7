import { describeFamily } from '../support/families.js';
import { FAMILIES } from '../../src/emit/families/kimi-glm-minimax-nemotron.js';

for (const f of FAMILIES) describeFamily(f, {});
