// What can be searched: the sections in the product's fixed order, with their titles and whether they
// are enabled, from `/api/sources`.

export const SECTION_ORDER = [
    'local', 'pixabay', 'flickr', 'openverse', 'wikimedia', 'movies', 'music', 'apps', 'books',
];

/** Where gallery items that came from no search source were from (docs/galleries.md). */
const OTHER_TITLES = { web: 'the web', upload: 'Upload' };

export class Catalog {
    constructor(sources = []) {
        this.sources = sources;
        /** @type {{id: string, title: string, source: string, enabled: boolean, reason?: string}[]} */
        this.sections = [];
        for (const source of sources) {
            for (const id of source.sections ?? [source.id]) {
                this.sections.push({
                    id,
                    title: id === source.id ? source.title : id.charAt(0).toUpperCase() + id.slice(1),
                    source: source.id,
                    enabled: source.enabled,
                    reason: source.reason,
                });
            }
        }
        const rank = (id) => {
            const index = SECTION_ORDER.indexOf(id);
            return index < 0 ? SECTION_ORDER.length : index;
        };
        this.sections.sort((a, b) => rank(a.id) - rank(b.id));
    }

    get enabledSections() {
        return this.sections.filter((section) => section.enabled);
    }

    section(id) {
        return this.sections.find((section) => section.id === id);
    }

    sourceTitle(sourceID) {
        return this.sources.find((source) => source.id === sourceID)?.title ?? OTHER_TITLES[sourceID] ?? sourceID;
    }

    isScope(scope) {
        return scope === 'all' || this.sections.some((section) => section.id === scope);
    }
}
