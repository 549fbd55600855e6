/** Names of the prompts, in one place: the prompts point at each other and the skill names both. */
export const EXPLAIN_FILE_PROMPT = 'pvf_explain_file';
export const TAG_MEANING_PROMPT = 'pvf_tag_meaning';
