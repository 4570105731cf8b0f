import addFormatsModule from 'ajv-formats';
import type { Ajv } from 'ajv';

/**
 * ajv-formats' plugin, for every Ajv instance (route bodies, user schemas). The package is
 * CommonJS, and under NodeNext its default export arrives wrapped in another `default`.
 */
export const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as <A extends Pick<Ajv, 'addFormat' | 'addKeyword'>>(ajv: A) => A;
