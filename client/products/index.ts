export { PRODUCTS, PRODUCT_LIST, PRODUCT_TABLE, PRODUCT_SPECS, productModule, productDefinition } from './registry';
