import type { ErrorBody, RestorableRecord } from '../../shared';
import { HttpError } from '../http/http-error';

/**
 * The 404 of a read or a save of a record that was deleted and can still be restored: a `not_found` like any missing
 * record, whose body also says which record and until when (ErrorBody `deletedRecord`), so that a page can lead to
 * the resource's Recently deleted rather than only say "Not found".
 */
export class DeletedRecordError extends HttpError {
  constructor(
    message: string,
    readonly deletedRecord: RestorableRecord,
  ) {
    super('not_found', message);
    this.name = 'DeletedRecordError';
  }

  override toBody(): ErrorBody {
    const body = super.toBody();
    body.error.deletedRecord = { ...this.deletedRecord };
    return body;
  }
}
