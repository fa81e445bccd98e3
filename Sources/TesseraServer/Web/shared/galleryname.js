// The gallery-name rule, as the server keeps it: 1–100 characters after trimming. The picker, the galleries
// list and renaming in place (galleries/rename.js) all say the same before asking the server.

export const MAX_NAME = 100;

/** Why a name cannot be used, or null when it can. */
export function nameProblem(value) {
    const name = value.trim();
    if (!name) return 'Give the gallery a name.';
    // Code points, as the server counts them ([...s] walks code points; .length counts UTF-16 halves).
    const length = [...name].length;
    if (length > MAX_NAME) return `Names are at most ${MAX_NAME} characters; this one has ${length}.`;
    return null;
}
