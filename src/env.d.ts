/// <reference types="vite/client" />

/** The product name (PRODUCT), baked into the build by vite's `define`. */
declare const __PRODUCT__: string;
