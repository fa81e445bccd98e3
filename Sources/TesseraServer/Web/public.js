// The public page of a shared gallery (/s/{slug}); the links-web branch fills this in.
