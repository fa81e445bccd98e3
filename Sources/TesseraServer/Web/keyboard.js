// Arrow keys move focus between result tiles: left and right to the neighbour, up and down a row (or to
// the strip above or below in the sections of "All"), Home and End to the first and last. Enter opens.

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
            const columns = columnCount(tiles);
            target = tiles[index + (event.key === 'ArrowDown' ? columns : -columns)];
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

/** Tiles in the first row share its top edge. */
function columnCount(links) {
    if (links.length === 0) return 1;
    const top = links[0].getBoundingClientRect().top;
    const count = links.findIndex((link) => Math.abs(link.getBoundingClientRect().top - top) > 2);
    return count < 0 ? links.length : count;
}
