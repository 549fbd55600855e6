/**
 * Bounds on the script text rendered from a compiled script, shared by both archive families so that
 * the same file renders alike whichever container holds it.
 */

/**
 * Indentation stops growing at this depth, so a pathological nesting (thousands of sections deep) costs
 * output linear in its tokens, not quadratic. Real scripts nest a few levels; layout never changes the
 * tokens a text compiles to.
 */
export const MAX_INDENT = 32;

/**
 * Longest canonical text produced, in UTF-16 code units. Tokens can repeat one long string any number
 * of times, so a crafted 1 MB script could otherwise expand to gigabytes.
 */
export const MAX_DECOMPILED_UNITS = 64 * 1024 * 1024;
