import { describeFamily, OVERFLOW } from '../support/families.js';
import { FUNCTIONARY_32 } from '../../src/emit/families/functionary-3.2.js';

describeFamily(FUNCTIONARY_32, { 'raw-default-1e400-overflow': OVERFLOW });
