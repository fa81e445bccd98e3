// A gallery tile's menu (Move left, Move right, Remove): one menu element shared by every tile, opened
// under the tile's "⋯" button. Arrow keys move through it, Escape closes it and returns to the button.
import { $, $$ } from '../shared/dom.js';

export class TileMenu {
    /** `onAction(action, itemID)` runs the chosen entry. */
    constructor(onAction) {
        this.menu = $('#item-menu');
        this.onAction = onAction;
        this.button = null;
        this.menu.addEventListener('click', (event) => {
            const entry = event.target.closest('button[data-action]');
            if (!entry || entry.disabled) return;
            const { itemID, button } = this;
            this.close(false);
            this.onAction(entry.dataset.action, itemID, button);
        });
        this.menu.addEventListener('keydown', (event) => this.key(event));
        document.addEventListener('pointerdown', (event) => {
            const outside = !this.menu.contains(event.target) && !this.button?.contains(event.target);
            if (this.isOpen && outside) this.close(false);
        });
        addEventListener('resize', () => this.close(false));
        addEventListener('scroll', () => this.close(false), { passive: true });
    }

    get isOpen() {
        return !this.menu.hidden;
    }

    /** Opens under `button` for the item; `position` ({index, count}) disables moves past the ends. */
    open(button, itemID, { index, count }) {
        if (this.isOpen && this.button === button) {
            this.close(true);
            return;
        }
        this.close(false);
        this.button = button;
        this.itemID = itemID;
        this.menu.querySelector('[data-action="left"]').disabled = index <= 0;
        this.menu.querySelector('[data-action="right"]').disabled = index >= count - 1;
        this.menu.hidden = false;
        button.setAttribute('aria-expanded', 'true');
        const anchor = button.getBoundingClientRect();
        const box = this.menu.getBoundingClientRect();
        this.menu.style.left = `${Math.max(8, Math.min(anchor.right - box.width, innerWidth - box.width - 8))}px`;
        const below = anchor.bottom + 4;
        const top = below + box.height > innerHeight - 8 ? Math.max(8, anchor.top - box.height - 4) : below;
        this.menu.style.top = `${top}px`;
        this.entries()[0]?.focus();
    }

    close(restoreFocus) {
        if (!this.isOpen) return;
        this.menu.hidden = true;
        this.button?.setAttribute('aria-expanded', 'false');
        if (restoreFocus) this.button?.focus();
        this.button = null;
    }

    entries() {
        return $$('button:not([disabled])', this.menu);
    }

    key(event) {
        const entries = this.entries();
        const index = entries.indexOf(document.activeElement);
        if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
            event.preventDefault();
            entries[(index + (event.key === 'ArrowDown' ? 1 : -1) + entries.length) % entries.length]?.focus();
        } else if (event.key === 'Home' || event.key === 'End') {
            event.preventDefault();
            entries[event.key === 'Home' ? 0 : entries.length - 1]?.focus();
        } else if (event.key === 'Escape') {
            event.preventDefault();
            event.stopPropagation();
            this.close(true);
        } else if (event.key === 'Tab') {
            this.close(false);
        }
    }
}
