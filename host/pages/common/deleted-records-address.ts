/**
 * The address of a resource's Recently deleted page (DeletedRecordsPage): linked from its list, from the undo notice,
 * and from the page of a record that was deleted. `deleted` is never a record id (ids are numbers).
 */
export function deletedRecordsAddress(resource: string): string {
  return `/resources/${encodeURIComponent(resource)}/deleted`;
}
