// Response schemas of the v3 family (schemas/api/v3.json: the entities and the cursor envelope).
import { apiSchemas } from '../schema-home.ts';

const defs = apiSchemas('v3.json');

/** A v3 schema by name (its definitions are prefixed V3: the OpenAPI document hoists every file's
 *  definitions into one namespace, where v1 has a Transaction too). */
export const v3Schema = (name: string) => defs(`V3${name}`);
