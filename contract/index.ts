export * from './auth';
export * from './common';
export * from './constants';
export * from './endpoints';
export * from './sync';
export * from './telemetry';
export * from './user';
export * from './worker-api';
