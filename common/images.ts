/** The marker in front of every stored image: 3 ASCII bytes, then the AES-CBC ciphertext (the API writes it, the SPA strips it). */
export const IMAGE_MARKER = 'ZGE';
