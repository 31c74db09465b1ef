// See package.json: `prisma dev` is not part of Parley; anything that reaches here asked for it.
throw new Error("@prisma/streams-local is not installed in Parley (it serves `prisma dev`, which Parley does not use)");
