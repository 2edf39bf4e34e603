export * from './api.js';
export * from './chat.js';
export * from './errors.js';
export * from './events.js';
export * from './history.js';
export * from './model.js';
export * from './transport.js';
export * from './tools.js';
