// Renaming a gallery in place. The name is a button; clicking it (or Enter on it) swaps in a text field:
// Enter or leaving the field saves, Escape puts the name back.
import { h } from '../shared/dom.js';
import { nameProblem } from '../shared/galleryname.js';

/**
 * Makes `button` (whose text is the name) renamable. `save(name)` stores the new name and throws an error
 * with a message when it cannot; `label` is the field's accessible name.
 */
export function renamable(button, { save, label = 'Gallery name' }) {
    button.addEventListener('click', () => edit(button, save, label));
}

function edit(button, save, label) {
    const original = button.textContent;
    const messageID = `rename-message-${Math.random().toString(36).slice(2, 8)}`;
    const field = h('input', {
        type: 'text', class: 'rename-field', value: original, 'aria-label': label, autocomplete: 'off',
        spellcheck: 'false', 'aria-describedby': messageID, enterkeyhint: 'done',
    });
    const message = h('p', { id: messageID, class: 'inline-message', role: 'alert', hidden: true });
    const editor = h('span', { class: 'rename' }, field, message);
    let done = false;

    const finish = (name) => {
        if (done) return;
        done = true;
        if (name != null) button.textContent = name;
        editor.replaceWith(button);
        button.focus();
    };
    const commit = async () => {
        if (done) return;
        const name = field.value.trim();
        if (name === original) return finish(null);
        const problem = nameProblem(field.value);
        if (problem) {
            message.textContent = problem;
            message.hidden = false;
            field.setAttribute('aria-invalid', 'true');
            return;
        }
        field.disabled = true;
        try {
            await save(name);
            finish(name);
        } catch (error) {
            field.disabled = false;
            message.textContent = error.message;
            message.hidden = false;
            field.focus();
        }
    };

    field.addEventListener('keydown', (event) => {
        if (event.key === 'Enter') {
            event.preventDefault();
            commit();
        } else if (event.key === 'Escape') {
            event.preventDefault();
            event.stopPropagation();
            finish(null);
        }
    });
    field.addEventListener('input', () => {
        message.hidden = true;
        field.removeAttribute('aria-invalid');
    });
    // Leaving the field keeps a valid new name (as photo apps do); an invalid one is dropped.
    field.addEventListener('blur', () => {
        if (done || field.disabled) return;
        if (nameProblem(field.value)) finish(null);
        else commit();
    });

    button.replaceWith(editor);
    field.focus();
    field.select();
}
