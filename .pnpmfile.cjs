// The Prisma client names the Prisma CLI (and TypeScript) as optional peers. They are build tools
// here (the CLI generates the client; see scripts/prisma-generate.mjs), so they are not bound as
// its peers: a production install (`pnpm install --prod`) then leaves the CLI, its studio and
// its embedded database out, about 200 MB.
module.exports = {
  hooks: {
    readPackage(pkg) {
      if (pkg.name === "@prisma/client") {
        // A name left in peerDependenciesMeta alone still counts as an optional peer.
        delete pkg.peerDependencies;
        delete pkg.peerDependenciesMeta;
      }
      return pkg;
    },
  },
};
