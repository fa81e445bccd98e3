// Arrow keys move focus between result tiles: left and right to the neighbour, up and down to the tile under
// or over it in the next row (or to the strip above or below in the sections of "All"), Home and End to the
// first and last. Enter opens.

export function enableGridKeys(container) {
    container.addEventListener('keydown', (event) => {
        if (!['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End'].includes(event.key)) return;
        const link = event.target.closest?.('.tile a');
        if (!link) return;
        const list = link.closest('ul');
        const tiles = visibleLinks(list);
        const index = tiles.indexOf(link);
        let target = null;
        if (event.key === 'ArrowLeft') target = tiles[index - 1];
        else if (event.key === 'ArrowRight') target = tiles[index + 1];
        else if (event.key === 'Home') target = tiles[0];
        else if (event.key === 'End') target = tiles[tiles.length - 1];
        else if (list.classList.contains('strip')) {
            // Sections: the same position in the strip above or below.
            const strips = [...container.querySelectorAll('.strip')].filter((strip) => visibleLinks(strip).length);
            const other = strips[strips.indexOf(list) + (event.key === 'ArrowDown' ? 1 : -1)];
            if (other) {
                const links = visibleLinks(other);
                target = links[Math.min(index, links.length - 1)];
            }
        } else {
            target = below(tiles, index, event.key === 'ArrowDown' ? 1 : -1);
        }
        if (!target) return;
        event.preventDefault();
        target.focus();
        target.scrollIntoView({ block: 'nearest', inline: 'nearest' });
    });
}

function visibleLinks(list) {
    return [...list.querySelectorAll('.tile:not([hidden]):not(.skeleton) > a')];
}

/**
 * The tile in the next row down (`direction` 1) or up (-1) under this one's centre, or else nearest to it:
 * rows of justified tiles have no columns to count.
 */
function below(links, index, direction) {
    const boxes = links.map((link) => link.getBoundingClientRect());
    const here = boxes[index];
    const centre = here.left + here.width / 2;
    const tops = boxes.map((box) => box.top).filter((top) => (top - here.top) * direction > 2);
    if (tops.length === 0) return null;
    const row = direction > 0 ? Math.min(...tops) : Math.max(...tops);
    let best = null;
    let distance = Infinity;
    boxes.forEach((box, i) => {
        if (Math.abs(box.top - row) > 2) return;
        const away = box.left <= centre && centre <= box.right ? 0 : Math.abs(box.left + box.width / 2 - centre);
        if (away < distance) {
            distance = away;
            best = links[i];
        }
    });
    return best;
}
