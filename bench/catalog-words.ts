// Word lists for generated product titles. Words are drawn with Zipf-like weights (earlier =
// more frequent), so search terms range from very common ("cotton") to rare ("ottoman"), as
// in a real catalog, and trigram search sees realistic selectivity.

export const ADJECTIVES = [
  "Classic", "Modern", "Rustic", "Vintage", "Compact", "Deluxe", "Premium", "Essential", "Handmade",
  "Lightweight", "Foldable", "Ergonomic", "Minimalist", "Heavy-Duty", "Portable", "Scandinavian",
  "Industrial", "Cozy", "Slim", "Oversized", "Waterproof", "Adjustable", "Artisan", "Everyday",
];

export const MATERIALS = [
  "Cotton", "Steel", "Oak", "Leather", "Linen", "Bamboo", "Ceramic", "Glass", "Wool", "Walnut",
  "Aluminium", "Marble", "Rattan", "Velvet", "Brass", "Copper", "Cork", "Teak",
];

export const NOUNS = [
  "Chair", "Lamp", "Table", "Mug", "Backpack", "Blanket", "Vase", "Shelf", "Bottle", "Cushion",
  "Rug", "Stool", "Basket", "Desk Organizer", "Cutting Board", "Candle Holder", "Wall Clock",
  "Throw Pillow", "Tote Bag", "Planter", "Bowl", "Serving Tray", "Bookend", "Coat Rack",
  "Laundry Hamper", "Mirror", "Jewelry Box", "Teapot", "Coaster Set", "Picture Frame", "Side Table",
  "Pendant Light", "Doormat", "Bench", "Wine Rack", "Ottoman",
];

export const COLOURS = [
  "Black", "White", "Grey", "Navy", "Sage", "Terracotta", "Mustard", "Ivory", "Charcoal", "Olive",
  "Blush", "Teal", "Sand", "Burgundy", "Forest Green", "Sky Blue", "Rust", "Cream", "Slate", "Indigo",
];

export const BRANDS = [
  "Nordhaus", "Atelier Nine", "Kettle & Pine", "Urban Loft", "Maison Clair", "Fjord Living",
  "Oakridge Co.", "Studio Terra", "Bright Nest", "Casa Verde", "Hearth Lane", "Lumen Works",
];

export const DESCRIPTIONS = [
  "Designed for everyday use and built to last.",
  "Finished by hand; small variations in grain and colour are part of its character.",
  "Easy to clean with a damp cloth. Not dishwasher safe.",
  "Ships flat-packed with all fittings and illustrated instructions.",
  "Sustainably sourced materials and plastic-free packaging.",
  "Pairs well with the rest of the collection.",
];
