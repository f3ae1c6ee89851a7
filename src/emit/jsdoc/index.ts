/** The JSDoc target: TypeScript declarations with JSDoc comments, and its message assembly. */
export { JSDOC_NAMESPACE, emitJsdocCatalog, emitJsdocTool, formatJsdoc, jsdocNamespaceName, type JsdocCatalogOptions } from './catalog.js';
export { jsdocRoutingLines, renderJsdocDeveloperMessage, renderJsdocToolsSection, type JsdocDeveloperOptions } from './messages.js';
export { jsdocType, valueType, type JsdocScope, type Printed, type Prec } from './types.js';
export { NameTable, isIdentifierName, propertyKey, sanitizeIdentifier } from './names.js';
