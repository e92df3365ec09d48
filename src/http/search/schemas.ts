// JSON Schemas of the search route (schemas/api/search.json).
import { apiSchemas } from '../schema-home.ts';

const search = apiSchemas('search.json');

export const SEARCH_FOUND = search('SearchSuccessResult');
export const SEARCH_NOT_FOUND = search('SearchErrorResult');
export const SEARCH_PARAMS = search('SearchParams');
export const SEARCH_QUERY = search('SearchQuery');
