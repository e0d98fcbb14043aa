/**
 * What the wizard shows only once JavaScript runs, on its later steps: the upload zone of step 5
 * and the calendar of step 6. One module loaded apart from the route (decision 029): the first
 * steps never carry it, and step 4 starts loading it while it is filled in.
 */
export { UploadZone } from "./UploadZone";
export { Calendar } from "./Calendar";
