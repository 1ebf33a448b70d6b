/** server.js, the entry point, exports nothing: importing it starts the server. */
export {};
