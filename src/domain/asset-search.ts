// When the asset search filters. A piece of one or two characters (ULIs are 38 random letters and
// digits) matches a fifth to all of an organization's loans: no index narrows it, and counting
// its matches exactly reads every one of them (about a second at a million loans). So the search
// applies from three characters in a row; a shorter text lists as if the box were empty.

/** The shortest run of characters, between line breaks, that the asset search filters by. */
export const MIN_SEARCH_CHARACTERS = 3;

/** The pieces of a search between its line breaks (fields are joined by line breaks). */
export const searchPieces = (query: string): string[] => query.split('\n');

/** The text the asset list is filtered by: the query when some piece holds three characters, else none. */
export function assetSearchText(query: string | undefined): string | undefined {
  if (query === undefined) return undefined;
  const searchable = searchPieces(query).some((piece) => [...piece.trim()].length >= MIN_SEARCH_CHARACTERS);
  return searchable ? query : undefined;
}
