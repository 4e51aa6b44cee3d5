export { visibleText } from '../../../shared/visible-text';
