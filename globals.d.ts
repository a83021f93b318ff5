/// <reference types="vite/client" />

/** The product name (PRODUCT), baked into the app and worker bundles by vite's `define`. */
declare const __PRODUCT__: string;
